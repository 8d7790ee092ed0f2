import type {RunResult} from '../codex/runner.js';
import {counted} from '../text/format.js';
import type {RunView} from './model/runs.js';
import type {Tone} from './state.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

const outcomeTone = (outcome: string): Tone => (outcome === 'ok' ? 'ok' : (outcome === 'partial' || outcome === 'cancelled' ? 'warn' : 'error'));

/** The header's run status: a spinner and the time while running, the outcome after. */
export function runStatus(run: RunView | null, now: number, frame: number): {text: string; tone: Tone} | null {
	if (!run) return null;
	if (run.finishedAt === null) {
		return {text: `${SPINNER[frame % SPINNER.length]} Codex ${run.cancelling ? 'cancelling' : 'running'} ${seconds(now - run.startedAt)} · ${run.steps.length} steps`, tone: 'info'};
	}

	const outcome = run.result?.outcome ?? 'failed';
	return {text: `Codex ${outcome} ${seconds(run.finishedAt - run.startedAt)}`, tone: outcomeTone(outcome)};
}

/** The message when a run ends: its outcome, what it did, and what to do next. */
export function runFinishMessage(result: RunResult): {text: string; tone: Tone} {
	const counts = `${counted(result.editsApplied, 'edit')}, ${result.rejections} refused, ${counted(result.followupsOpened, 'follow-up')}`;
	const extra = result.outcome === 'auth_required' ? ` — run \`${result.loginCommand ?? 'codex login'}\`, then c again` : (result.outcome === 'codex_missing' ? ' — install with `npm install -g @openai/codex` or pass --codex PATH' : '');
	return {text: `Codex ${result.outcome} in ${seconds(result.durationMs)}: ${counts}${extra}${result.followupsOpened > 0 ? ' · F to resolve' : ''}`, tone: outcomeTone(result.outcome)};
}
