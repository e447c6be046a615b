import type { RouteObject } from 'react-router-dom';
import { guestOnly } from '@/lib/session-guards.ts';

// Imported by the router, so part of the first load: only lazy screens and the shell's guest guard here.
export const authRoutes: RouteObject[] = [
  {
    path: 'auth/login',
    loader: guestOnly,
    lazy: () => import('./screens/login-screen.tsx').then((m) => ({ Component: m.LoginScreen })),
  },
  {
    path: 'auth/signup',
    loader: guestOnly,
    lazy: () => import('./screens/signup-screen.tsx').then((m) => ({ Component: m.SignUpScreen })),
  },
  {
    path: 'auth/forgot-password',
    lazy: () => import('./screens/forgot-password-screen.tsx').then((m) => ({ Component: m.ForgotPasswordScreen })),
  },
  {
    path: 'reset-password',
    lazy: () => import('./screens/reset-password-screen.tsx').then((m) => ({ Component: m.ResetPasswordScreen })),
  },
];
