// Pure: the secrets of a run (a postgres URL's password, `$PGPASSWORD`) and their replacement by
// `***`.

import {isPostgresUrl} from '../../store/index.js';

/** Shorter secrets are not searched for: replacing every "ab" would garble the text and hide little. */
const MIN_SECRET_LENGTH = 3;
export const REDACTED = '***';

/**
 * The secrets a run must never write into its log, messages or result: the password of a
 * postgres:// store URL (as written and decoded) and $PGPASSWORD, each also as it looks inside
 * a JSON string.
 */
export function runSecrets(dbPath: string, env: NodeJS.ProcessEnv): string[] {
	const found: string[] = [];
	if (isPostgresUrl(dbPath)) {
		try {
			const {password} = new URL(dbPath);
			found.push(password, safeDecode(password));
		} catch {
			// A URL that does not parse fails to open later, with the store's own message.
		}
	}
	if (env.PGPASSWORD) found.push(env.PGPASSWORD);
	const forms = found.flatMap(secret => [secret, JSON.stringify(secret).slice(1, -1)]);
	// Longest first, so a secret that contains another is replaced whole.
	return [...new Set(forms.filter(secret => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** Pure: `text` with every occurrence of each secret replaced by ***. */
export function redact(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join(REDACTED);
	return out;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
