import { z } from 'zod';
import { RoleSchema } from './roles.ts';

/** Product slug of `POST api/pub/{product}/generate-token`. */
export const PRODUCT_SLUG = 'gostar';

export const LoginRequestSchema = z.object({
  username: z.string().trim().min(1, 'Enter your e-mail address.').max(254),
  password: z.string().min(1, 'Enter your password.').max(256),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** Spec §3 "Login result", plus the node-API token of §3 "Session values". */
export const LoginResultSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  token: z.string(),
  userHashId: z.string(),
  /** The answering server's name. */
  applicationDiff: z.string(),
  nodeToken: z.string(),
  sessionId: z.string(),
  tokenExpiresAt: z.string(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

/** Spec §3 subscription entry of the profile. */
export const SubscriptionDetailSchema = z.object({
  roleName: z.string(),
  endDate: z.string(),
  contractId: z.string(),
  havingFlatFileAccess: z.boolean(),
});
export type SubscriptionDetail = z.infer<typeof SubscriptionDetailSchema>;

/** Spec §3 "User profile". */
export const UserProfileSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isNewUser: z.boolean(),
  notificationsCount: z.number().int(),
  subscriptionDetailsList: z.array(SubscriptionDetailSchema),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const SubscriptionRequiredRequestSchema = z.object({ id: z.number().int() });
export type SubscriptionRequiredRequest = z.infer<typeof SubscriptionRequiredRequestSchema>;

/** Spec §3 "Subscription info". */
export const SubscriptionInfoSchema = z.object({
  end_date: z.string().nullable(),
  creditbalance: z.number().int(),
  userExpiring: z.boolean(),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfoSchema>;

/** Spec §3 "subscription summary". */
export const SubscriptionSummarySchema = z.object({
  downloadBalance: z.number().int(),
  username: z.string(),
  expiringDays: z.number().int().nullable(),
  endDate: z.string().nullable(),
  expiring: z.boolean(),
});
export type SubscriptionSummary = z.infer<typeof SubscriptionSummarySchema>;

/** Spec §9 thresholds of the subscription warning. */
export const SUBSCRIPTION_WARNING = { daysBelow: 7, balanceAtMost: 100 } as const;

const passwordRule = z
  .string()
  .min(8, 'Use at least 8 characters.')
  .max(256, 'Use at most 256 characters.')
  .refine((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p), 'Use at least one letter and one digit.');

export const PasswordSchema = passwordRule;

export const RegisterRequestSchema = z.object({
  email: z.email('Enter a valid e-mail address.').max(254),
  firstName: z.string().trim().min(1, 'Enter your first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter your last name.').max(100),
  organisation: z.string().trim().max(200).optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

export const MessageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const ForgotPasswordRequestSchema = z.object({
  email: z.email('Enter a valid e-mail address.').max(254),
});
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

export const VerifyCodeInfoSchema = z.object({
  email: z.string(),
  purpose: z.enum(['register', 'reset']),
  expiresAt: z.string(),
});
export type VerifyCodeInfo = z.infer<typeof VerifyCodeInfoSchema>;

export const SetPasswordRequestSchema = z.object({ password: passwordRule });
export type SetPasswordRequest = z.infer<typeof SetPasswordRequestSchema>;

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.'),
  newPassword: passwordRule,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const RoleListSchema = z.array(RoleSchema);
