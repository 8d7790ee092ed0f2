import {Box, Text} from '#ink';
import type {ReactElement} from 'react';
import type {RunView} from '../model/runs.js';
import {outcomeAdvice, runDurationMs, seconds, SPINNER, stepCount} from '../run-status.js';
import {sanitize} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';
import {wrapLines} from './detail.js';
import {counted, proposedNotApplied, thousands} from '../../text/format.js';

export {outcomeAdvice} from '../run-status.js';

export type RunPaneProps = {
	run: RunView;
	now: number;
	frame: number;
	width: number;
	height: number;
};

const OUTCOME_TONE: Record<string, string> = {ok: 'green', partial: 'yellow', failed: 'red', auth_required: 'red', timed_out: 'red', cancelled: 'yellow', codex_missing: 'red', agent_sandbox_unavailable: 'red', abandoned: 'red'};


/**
 * How `room` rows are shared between the steps (a `waiting…` line when there are none) and the
 * answer (its title and lines): each gets what it needs when both fit; else the steps keep a
 * third (at least their latest under an "earlier steps" line) and the answer the rest.
 */
export function paneRows(steps: number, answerLines: number, room: number): {stepRows: number; answerRows: number} {
	const stepNeed = Math.max(1, steps);
	const answerNeed = answerLines > 0 ? answerLines + 1 : 0;
	if (stepNeed + answerNeed <= room) return {stepRows: stepNeed, answerRows: answerNeed};
	if (answerNeed === 0) return {stepRows: room, answerRows: 0};
	const answerRows = Math.min(answerNeed, Math.max(0, room - Math.min(stepNeed, Math.max(2, Math.floor(room / 3)))));
	return {stepRows: room - answerRows, answerRows};
}

/** The live run: steps with spinner / ✓ / ✗ and short results, elapsed time, answer, outcome, usage. */
export function RunPane({run, now, frame, width, height}: RunPaneProps) {
	const theme = useTheme();
	const running = run.finishedAt === null;
	const elapsed = seconds(runDurationMs(run, now));
	const outcome = run.result?.outcome ?? (run.crash ? 'failed' : null);
	const head: ReactElement = running ? (
		<Text wrap="truncate-end">
			<Text color={theme.color('cyan')}>{SPINNER[frame % SPINNER.length]} Codex {run.cancelling ? 'cancelling…' : 'running'}</Text>
			<Text dimColor>{` ${elapsed} · ${counted(run.itemIds.length, 'item')} · ${stepCount(run)} · x cancels`}</Text>
		</Text>
	) : (
		<Text wrap="truncate-end">
			<Text bold color={theme.color(OUTCOME_TONE[outcome ?? 'failed'])}>{outcome === 'ok' ? '✓' : '✗'} Codex {outcome}</Text>
			<Text dimColor>{` in ${elapsed} · ${stepCount(run)} · ${sanitize(run.runId)}`}</Text>
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
		const usage = usageSeen ? `${thousands(usageSeen.input_tokens)} in (${thousands(usageSeen.cached_input_tokens)} cached) · ${thousands(usageSeen.output_tokens)} out` : 'no usage reported';
		const counts = run.result ? ` · ${counted(run.result.editsApplied, 'edit')}${(run.result.proposals ?? 0) > 0 ? ` · ${proposedNotApplied(run.result.proposals!)}` : ''} · ${run.result.rejections} refused · ${counted(run.result.followupsOpened, 'follow-up')}` : '';
		tail.push(<Text key="usage" dimColor wrap="truncate-end">{`usage: ${usage}${counts}`}</Text>);
	}

	const lastNote = run.stall ?? run.warnings.at(-1) ?? run.notices.at(-1);
	if (running && lastNote) {
		tail.push(<Text key="note" color={theme.color('yellow')} wrap="truncate-end">{`! ${sanitize(lastNote)}`}</Text>);
	}

	// Room: header + instruction + steps + answer + tail.
	const answerLines = run.text ? wrapLines(sanitize(run.text, {multiline: true}), textWidth) : [];
	const room = Math.max(1, height - 2 - tail.length);
	const rows = paneRows(run.steps.length, answerLines.length, room);
	const hidden = rows.stepRows < Math.max(1, run.steps.length) ? run.steps.length - Math.max(0, rows.stepRows - 1) : 0;
	const steps = rows.stepRows === 0 ? [] : run.steps.slice(hidden);
	const answerShown = Math.max(0, rows.answerRows - 1);
	const answerCut = answerLines.length > answerShown ? answerLines.length - Math.max(0, answerShown - 1) : 0;

	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{head}
			<Text dimColor wrap="truncate-end">{`› ${sanitize(run.instruction)}`}</Text>
			{hidden > 0 && rows.stepRows > 0 ? <Text dimColor>{`  … ${counted(hidden, 'earlier step')}`}</Text> : null}
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
			{rows.answerRows > 0 ? (
				<>
					<Text bold>Answer{running ? ' (so far)' : ''}:</Text>
					{answerLines.slice(0, answerCut > 0 ? answerShown - 1 : answerShown).map((line, index) => <Text key={`ans${index}`} wrap="truncate-end">{line}</Text>)}
					{answerCut > 0 ? <Text dimColor>{`  … ${counted(answerCut, 'more line')} (R shows the whole run)`}</Text> : null}
				</>
			) : null}
			{tail}
		</Box>
	);
}
