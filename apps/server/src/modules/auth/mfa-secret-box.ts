import crypto from 'node:crypto';

/**
 * Encrypts TOTP secrets at rest (AES-256-GCM): a copy of the database alone does not give anyone
 * the codes. The key comes from MFA_SECRET_KEY (any long random text; docs/operations.md), else it
 * is generated once and kept in app_settings — which protects only against a copy of the mfa
 * tables, so production sets the variable.
 */
export class SecretBox {
  private readonly key: Buffer;
  /** A second key from the same material, for the recovery codes' HMAC (never the cipher key itself). */
  private readonly macKey: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', keyMaterial, 'kb-search', 'totp-secret-v1', 32));
    this.macKey = Buffer.from(crypto.hkdfSync('sha256', keyMaterial, 'kb-search', 'recovery-code-v1', 32));
  }

  /**
   * HMAC-SHA-256 under the key: stored recovery codes are keyed hashes, so a copy of the database
   * without the key cannot test guesses against them offline.
   */
  mac(text: string): string {
    return crypto.createHmac('sha256', this.macKey).update(text, 'utf8').digest('hex');
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('unknown secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
