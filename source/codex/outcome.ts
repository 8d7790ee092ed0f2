/**
 * `abandoned` is never decided here: it is recorded for a run whose sift died (SIGKILL, a crash)
 * before the run ended, when a later sift finds it (see reap.ts).
 */
export const OUTCOMES = ['ok', 'partial', 'failed', 'auth_required', 'timed_out', 'cancelled', 'codex_missing', 'agent_sandbox_unavailable', 'abandoned'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What the run learned from the stream, stderr and the process, in the terms of the run outcomes (docs/reference.md#run-outcomes). */
export type OutcomeFacts = {
	/** Set when sift itself ended the run. */
	stoppedBy: 'deadline' | 'cancel' | null;
	timeoutMs: number;
	turnCompleted: boolean;
	turnFailedMessage: string | null;
	/** The last top-level `error` event: transient notices such as "Reconnecting... 2/5" land here too. */
	lastErrorMessage: string | null;
	text: string;
	stderrTail: string;
	exitCode: number | null;
	signal: string | null;
	/** How to log in with the binary in use (`codex login`, else its path); see binary.ts. */
	loginCommand?: string;
};

export type Decision = {outcome: Outcome; error: string | null};

const AUTH_PATTERN = /\b401\b|unauthori[sz]ed|not logged in|please log in|sign in/i;
export const loginHint = (command = 'codex login') => `Run \`${command}\` and try again.`;
export const LOGIN_HINT = loginHint();

/** The outcome rules (docs/reference.md#run-outcomes). The exit status never decides on its own; it only words the last fallback. */
export function decideOutcome(facts: OutcomeFacts): Decision {
	if (facts.stoppedBy === 'cancel') return {outcome: 'cancelled', error: 'Cancelled: Codex and every process it started were stopped.'};
	if (facts.stoppedBy === 'deadline') {
		return {outcome: 'timed_out', error: `Codex did not finish within ${Math.round(facts.timeoutMs / 1000)} s; it was stopped.`};
	}
	if (facts.turnFailedMessage !== null) return failure(facts.turnFailedMessage, facts.loginCommand);
	if (facts.text && facts.turnCompleted) return {outcome: 'ok', error: null};
	if (facts.text) return {outcome: 'partial', error: `Codex stopped after answering, before finishing its turn (${exitDescription(facts)}).`};
	if (facts.turnCompleted) return {outcome: 'failed', error: 'Codex finished its turn without an answer.'};
	return failure(facts.lastErrorMessage ?? stderrReason(facts.stderrTail) ?? `Codex ended before finishing its turn (${exitDescription(facts)}).`, facts.loginCommand);
}

export function isAuthFailure(message: string): boolean {
	return AUTH_PATTERN.test(message);
}

function failure(message: string, loginCommand?: string): Decision {
	if (isAuthFailure(message)) return notLoggedIn(`Codex is not logged in or its login was refused (${message})`, loginCommand);
	return {outcome: 'failed', error: message};
}

/** auth_required, with the login command that works for the binary in use. */
export function notLoggedIn(reason: string, loginCommand?: string): Decision {
	return {outcome: 'auth_required', error: `${reason}. ${loginHint(loginCommand)}`};
}

/**
 * The line of the stderr tail that says why Codex gave up: the last one that reads like an error,
 * else the last line. A failed required MCP server start is reported this way, before any event.
 */
export function stderrReason(tail: string): string | null {
	const lines = tail.split('\n').map(line => line.trim()).filter(Boolean);
	const reason = lines.reverse().find(line => /error|failed|panicked|fatal/i.test(line)) ?? lines[0];
	if (!reason) return null;
	return /mcp/i.test(reason) ? `${reason} (sift's MCP server did not start: is sift built, with \`npm run build\`, and does the database open?)` : reason;
}

function exitDescription(facts: Pick<OutcomeFacts, 'exitCode' | 'signal'>): string {
	if (facts.signal) return `killed by ${facts.signal}`;
	return facts.exitCode === null ? 'no exit status' : `exit code ${facts.exitCode}`;
}
