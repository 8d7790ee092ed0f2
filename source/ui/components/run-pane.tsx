import {Box, Text} from '#ink';
import type {ReactElement} from 'react';
import type {RunView} from '../model/runs.js';
import {seconds, SPINNER} from '../run-status.js';
import {sanitize} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';
import {wrapLines} from './detail.js';
import {counted} from '../../text/format.js';

export type RunPaneProps = {
	run: RunView;
	now: number;
	frame: number;
	width: number;
	height: number;
};

const OUTCOME_TONE: Record<string, string> = {ok: 'green', partial: 'yellow', failed: 'red', auth_required: 'red', timed_out: 'red', cancelled: 'yellow', codex_missing: 'red', agent_sandbox_unavailable: 'red', abandoned: 'red'};

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

const n = (value: number) => value.toLocaleString('en-US');

/** The live run: steps with spinner / ✓ / ✗ and short results, elapsed time, answer, outcome, usage. */
export function RunPane({run, now, frame, width, height}: RunPaneProps) {
	const theme = useTheme();
	const running = run.finishedAt === null;
	const elapsed = seconds((run.finishedAt ?? now) - run.startedAt);
	const outcome = run.result?.outcome ?? (run.crash ? 'failed' : null);
	const head: ReactElement = running ? (
		<Text wrap="truncate-end">
			<Text color={theme.color('cyan')}>{SPINNER[frame % SPINNER.length]} Codex {run.cancelling ? 'cancelling…' : 'running'}</Text>
			<Text dimColor>{` ${elapsed} · ${counted(run.itemIds.length, 'item')} · ${counted(run.steps.length, 'step')} · x cancels`}</Text>
		</Text>
	) : (
		<Text wrap="truncate-end">
			<Text bold color={theme.color(OUTCOME_TONE[outcome ?? 'failed'])}>{outcome === 'ok' ? '✓' : '✗'} Codex {outcome}</Text>
			<Text dimColor>{` in ${elapsed} · ${run.steps.length} steps · ${sanitize(run.runId)}`}</Text>
		</Text>
	);

	const tail: ReactElement[] = [];
	const textWidth = Math.max(10, width - 2);
	const error = run.result?.error ?? run.crash;
	if (!running && outcome && outcome !== 'ok' && error) {
		for (const [index, line] of wrapLines(sanitize(error), textWidth).slice(0, 3).entries()) {
			tail.push(<Text key={`err${index}`} color={theme.color('red')} wrap="truncate-end">{line}</Text>);
		}
	}

	const advice = outcome ? outcomeAdvice(outcome, run.result?.loginCommand ?? undefined) : null;
	if (advice) {
		for (const [index, line] of wrapLines(advice, textWidth).entries()) {
			tail.push(<Text key={`adv${index}`} color={theme.color('yellow')} wrap="truncate-end">{line}</Text>);
		}
	}

	const usageSeen = run.usage ?? run.result?.usage ?? null;
	if (usageSeen || run.result) {
		const usage = usageSeen ? `${n(usageSeen.input_tokens)} in (${n(usageSeen.cached_input_tokens)} cached) · ${n(usageSeen.output_tokens)} out` : 'no usage reported';
		const counts = run.result ? ` · ${counted(run.result.editsApplied, 'edit')} · ${run.result.rejections} refused · ${counted(run.result.followupsOpened, 'follow-up')}` : '';
		tail.push(<Text key="usage" dimColor wrap="truncate-end">{`usage: ${usage}${counts}`}</Text>);
	}

	const lastNote = run.stall ?? run.warnings.at(-1) ?? run.notices.at(-1);
	if (running && lastNote) {
		tail.push(<Text key="note" color={theme.color('yellow')} wrap="truncate-end">{`! ${sanitize(lastNote)}`}</Text>);
	}

	// Room: header + instruction + steps + answer + tail.
	const answerLines = run.text ? wrapLines(sanitize(run.text, {multiline: true}), textWidth) : [];
	const fixed = 2 + tail.length;
	const room = Math.max(1, height - fixed);
	const stepRoom = Math.max(1, Math.min(run.steps.length || 1, room - Math.min(answerLines.length + 1, Math.floor(room / 2))));
	const hidden = Math.max(0, run.steps.length - stepRoom);
	const steps = run.steps.slice(hidden + (hidden > 0 ? 1 : 0));
	const answerRoom = Math.max(0, room - (steps.length + (hidden > 0 ? 1 : 0)) - 1);

	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{head}
			<Text dimColor wrap="truncate-end">{`› ${sanitize(run.instruction)}`}</Text>
			{hidden > 0 ? <Text dimColor>{`  … ${hidden + 1} earlier steps`}</Text> : null}
			{run.steps.length === 0 && running ? <Text dimColor>  waiting for Codex…</Text> : null}
			{steps.map(step => (
				<Text key={step.id} wrap="truncate-end">
					{step.status === 'running' && running ? <Text color={theme.color('cyan')}>{`${SPINNER[frame % SPINNER.length]} `}</Text> : null}
					{step.status === 'running' && !running ? <Text dimColor>- </Text> : null}
					{step.status === 'done' ? <Text color={theme.color('green')}>✓ </Text> : null}
					{step.status === 'failed' ? <Text color={theme.color('red')}>✗ </Text> : null}
					<Text>{sanitize(step.label)}</Text>
					{step.result ? <Text dimColor>{`  ${sanitize(step.result)}`}</Text> : null}
					{step.status === 'running' && !running ? <Text dimColor>  (never finished)</Text> : null}
				</Text>
			))}
			{answerLines.length > 0 && answerRoom > 0 ? (
				<>
					<Text bold>Answer{running ? ' (so far)' : ''}:</Text>
					{answerLines.slice(0, answerRoom - 1).map((line, index) => <Text key={`ans${index}`} wrap="truncate-end">{line}</Text>)}
				</>
			) : null}
			{tail}
		</Box>
	);
}
