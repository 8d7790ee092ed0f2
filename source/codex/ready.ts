// Whether Codex can run at all, asked before a watch or a run takes any items: a run refused for
// want of a binary or a login would otherwise use them up (docs/reference.md#sift-watch).

import {resolveCodexBinary} from './binary.js';
import {loginRequired, preflightLogin} from './login.js';
import {notLoggedIn, type Decision, type Outcome} from './outcome.js';
import {resolveStateDir} from './paths.js';
import type {RunOptions} from './runner.js';

/** The outcomes of a run that never reached the agent and that trying again cannot mend until a person acts. */
export const NEEDS_A_PERSON: ReadonlySet<Outcome> = new Set<Outcome>(['auth_required', 'codex_missing', 'agent_sandbox_unavailable']);

/**
 * null when a run could start now; else the decision the run would end with (codex_missing or
 * auth_required), worded as a run's. Uses the same cached login check as every run.
 */
export async function codexReady(options: Pick<RunOptions, 'codex' | 'codexConfig' | 'keepApiEnv' | 'env' | 'stateDir'>, signal?: AbortSignal): Promise<Decision | null> {
	const env = options.env ?? process.env;
	const lookup = resolveCodexBinary(options.codex, env);
	if (!lookup.ok) return {outcome: 'codex_missing', error: lookup.message};
	if (!loginRequired(options.codexConfig)) return null;
	const check = await preflightLogin(lookup.binary.path, {env, keepApiEnv: options.keepApiEnv, stateDir: options.stateDir ?? resolveStateDir(env), signal});
	return check.state === 'logged_out' ? notLoggedIn(`Codex is not logged in (\`codex login status\` says: ${check.detail})`, check.command) : null;
}
