import type {Decision} from '../codex/outcome.js';
import {INSTALL_HINT} from '../codex/binary.js';
import type {RunResult} from '../codex/runner.js';
import {counted, proposedNotApplied} from '../text/format.js';
import type {RunView} from './model/runs.js';
import type {Tone} from './state.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

const outcomeTone = (outcome: string): Tone => (outcome === 'ok' ? 'ok' : (outcome === 'partial' || outcome === 'cancelled' ? 'warn' : 'error'));

/**
 * How long a run took, the one figure the header, the pane, the board and the footer show: the
 * runner's own duration once it has ended, the time on the screen's clock while it goes.
 */
export function runDurationMs(run: RunView, now: number): number {
	if (run.result) return run.result.durationMs;
	return (run.finishedAt ?? now) - run.startedAt;
}

/** A run's steps as every place counts them: each step Codex began, `1 step` / `9 steps`. */
export const stepCount = (run: RunView) => counted(run.steps.length, 'step');

/** The header's run status: a spinner and the time while running, the outcome after. */
export function runStatus(run: RunView | null, now: number, frame: number): {text: string; tone: Tone} | null {
	if (!run) return null;
	if (run.finishedAt === null) {
		return {text: `${SPINNER[frame % SPINNER.length]} Codex ${run.cancelling ? 'cancelling' : 'running'} ${seconds(runDurationMs(run, now))} · ${stepCount(run)}`, tone: 'info'};
	}

	const outcome = run.result?.outcome ?? 'failed';
	return {text: `Codex ${outcome} ${seconds(runDurationMs(run, now))} · ${stepCount(run)}`, tone: outcomeTone(outcome)};
}

/** The message when a run ends: its outcome, what it did, and what to do next. */
export function runFinishMessage(result: RunResult): {text: string; tone: Tone} {
	const counts = `${counted(result.editsApplied, 'edit')}, ${(result.proposals ?? 0) > 0 ? `${proposedNotApplied(result.proposals!)}, ` : ''}${result.rejections} refused, ${counted(result.followupsOpened, 'follow-up')}`;
	const extra = result.outcome === 'auth_required' ? ` — run \`${result.loginCommand ?? 'codex login'}\`, then c again` : (result.outcome === 'codex_missing' ? ' — install with `npm install -g @openai/codex` or pass --codex PATH' : '');
	return {text: `Codex ${result.outcome} in ${seconds(result.durationMs)}: ${counts}${extra}${result.followupsOpened > 0 ? ' · F to resolve' : ''}`, tone: outcomeTone(result.outcome)};
}

/**
 * Why `c` or `W` took no items: Codex cannot run now (codex/ready.ts), and what to do, then press
 * `key` again. The fix comes first: the footer is one line.
 */
export function refusalText(refusal: Decision, key: 'c' | 'W'): string {
	const what = key === 'c' ? 'No run started' : 'Watch mode not started';
	if (refusal.outcome === 'auth_required') {
		// The login command that works for the binary in use, as the check worded it (codex/outcome.ts loginHint).
		const command = /Run `([^`]+)`/.exec(refusal.error ?? '')?.[1] ?? 'codex login';
		return `${what}: Codex is not logged in — run \`${command}\` in a shell, then press ${key} again.`;
	}

	if (refusal.outcome === 'codex_missing') {
		// The fix first, so a narrow footer shows it; where the binary was looked for after it (codex/binary.ts words both).
		const where = (refusal.error ?? '').replace(INSTALL_HINT, '').replace(/^Codex CLI not found:?\s*/, '').trim();
		return `${what}: Codex CLI not found. Install it with \`npm install -g @openai/codex\` or pass --codex PATH, then press ${key} again.${where ? ` (${where.replace(/\.$/, '')})` : ''}`;
	}

	return `${what}: ${refusal.error ?? refusal.outcome} Then press ${key} again.`;
}

/** What the footer says when a watch halted on its own: a batch needed a person (codex/watch-loop.ts halted()). */
export function watchHaltText(halt: Decision): string {
	return `Watch mode stopped: a batch ended ${halt.outcome}, its items wait again. ${halt.error ?? ''} Then press W again.`.replace(/\s+/g, ' ').trim();
}

/** What to do about an outcome that needs the person. */
export function outcomeAdvice(outcome: string, loginCommand = 'codex login'): string | null {
	switch (outcome) {
		case 'auth_required': {
			return `Codex is not logged in (or its login was refused). Fix: run \`${loginCommand}\` in a shell, then press c to run again.`;
		}

		case 'abandoned': {
			return 'The sift that ran this was killed before the run ended; a later sift stopped what was left of it.';
		}

		case 'codex_missing': {
			return 'The Codex CLI was not found. Fix: `npm install -g @openai/codex`, or start sift with --codex PATH (or set SIFT_CODEX).';
		}

		case 'agent_sandbox_unavailable': {
			return 'This Codex would give the agent a shell sift cannot turn off, so the run did not start. Fix: upgrade Codex, or start sift with --allow-agent-shell (see `sift doctor`).';
		}

		case 'timed_out': {
			return 'The run hit its deadline and was stopped; what it changed before stays changed.';
		}

		case 'partial': {
			return 'Codex answered but did not finish its turn; check the rows it touched.';
		}

		default: {
			return null;
		}
	}
}
