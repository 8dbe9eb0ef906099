import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): about 30 ms here, slow enough to hurt guessing.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, not importable under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

function dummy(): Promise<string> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  return dummyHash;
}

/** Computes the dummy hash before the first check of an unknown account needs it (kept for the process). */
export function primePasswordCheck(): void {
  void dummy();
}

/**
 * Verifies a password. With no stored hash it still spends the same time on a dummy hash, so the
 * answer's timing does not reveal which e-mail addresses have accounts.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await dummy(), password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
