import { z } from 'zod';
import { RoleSchema } from './roles.ts';
import { SecondFactorStateSchema } from './mfa.ts';

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
  /** Admin roles: whether this session still has to pass the second factor (contracts mfa.ts). */
  secondFactor: SecondFactorStateSchema,
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

/**
 * The password rule (ASVS 4.0.3 V2.1): length only, counted in Unicode code points (an emoji or an
 * accented letter is one character); no composition rules, spaces allowed, nothing truncated. The
 * server also refuses common and breached passwords (a dictionary too large for the browser) and
 * passwords containing the account's e-mail name; the web shows the rule and the server's message.
 * The rule applies when a password is set: older, shorter passwords keep working.
 */
export const PASSWORD_POLICY = { minLength: 12, maxLength: 128 } as const;

/** The rule as a form states it. */
export const PASSWORD_RULE_TEXT =
  `At least ${PASSWORD_POLICY.minLength} characters; spaces are allowed and no mix of letters, digits or symbols is required. ` +
  'A few unrelated words make a strong password that is easy to remember. Common passwords and your e-mail name are refused.';

/** Characters as a person counts them (code points), not UTF-16 units. */
export function passwordLength(password: string): number {
  return [...password].length;
}

export const PasswordSchema = z
  .string()
  .superRefine((password, ctx) => {
    const length = passwordLength(password);
    if (length < PASSWORD_POLICY.minLength) {
      ctx.addIssue({
        code: 'custom',
        message: `Use at least ${PASSWORD_POLICY.minLength} characters (this one has ${length}). A few unrelated words make a long password that is easy to remember.`,
      });
    } else if (length > PASSWORD_POLICY.maxLength) {
      ctx.addIssue({ code: 'custom', message: `Use at most ${PASSWORD_POLICY.maxLength} characters (this one has ${length}).` });
    }
  })
  .describe(PASSWORD_RULE_TEXT);

/** Shortest e-mail name (part before the @) that a password may not contain; shorter ones are common syllables. */
const MIN_EMAIL_NAME_CHECKED = 3;

/**
 * The first problem of a new password for an account, or null: the length rule, then the account's
 * e-mail name inside it (case-insensitive). The server adds its common-password check to this.
 */
export function passwordProblem(password: string, email?: string): string | null {
  const result = PasswordSchema.safeParse(password);
  if (!result.success) return result.error.issues[0]?.message ?? PASSWORD_RULE_TEXT;
  const name = (email ?? '').trim().toLowerCase().split('@')[0] ?? '';
  if (name.length >= MIN_EMAIL_NAME_CHECKED && password.toLowerCase().includes(name)) {
    return `Leave your e-mail name ("${name}") out of the password: it is the first thing an attacker tries.`;
  }
  return null;
}

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

export const SetPasswordRequestSchema = z.object({ password: PasswordSchema });
export type SetPasswordRequest = z.infer<typeof SetPasswordRequestSchema>;

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(256),
  newPassword: PasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const RoleListSchema = z.array(RoleSchema);
