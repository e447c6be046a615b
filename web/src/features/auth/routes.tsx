import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';
import { guestOnly } from '@/lib/session-guards.ts';

// Imported by the router, so part of the first load: only lazy screens and the shell's guest guard here.
export const authRoutes: RouteObject[] = [
  {
    path: paths.login,
    loader: guestOnly,
    lazy: () => import('./screens/login-screen.tsx').then((m) => ({ Component: m.LoginScreen })),
  },
  {
    path: paths.signup,
    loader: guestOnly,
    lazy: () => import('./screens/signup-screen.tsx').then((m) => ({ Component: m.SignUpScreen })),
  },
  {
    path: paths.forgotPassword,
    lazy: () => import('./screens/forgot-password-screen.tsx').then((m) => ({ Component: m.ForgotPasswordScreen })),
  },
  {
    path: paths.resetPassword,
    lazy: () => import('./screens/reset-password-screen.tsx').then((m) => ({ Component: m.ResetPasswordScreen })),
  },
];
