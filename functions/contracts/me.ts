import * as z from 'zod';
import { isoDate, roleSchema } from './common.ts';

/** GET /api/me */
export const meResponse = z.object({
  id: z.string(),
  email: z.email(),
  role: roleSchema,
  createdAt: isoDate,
});
export type MeResponse = z.infer<typeof meResponse>;
