// One past run's detail (R → Enter) as lines: every step, then the error, the advice and the
// answer, scrolled as one list with markers for what is above and below. Pure: the history slice
// clamps its scroll with it and components/history.tsx draws it.

import type {Step} from '../codex/steps.js';
import {sanitize} from '../text/sanitize.js';
import {outcomeAdvice} from './run-status.js';
import type {RunSummary} from './history.js';
import {plainLine, wrapSpans} from './spans.js';

export type DetailLine = {step: Step} | {text: string; tone: '' | 'bold' | 'red' | 'yellow'};

/** Rows above the lines: the run's title and its instruction. */
export const DETAIL_HEAD_ROWS = 2;

const wrap = (text: string, width: number) => wrapSpans([{text}], Math.max(10, width)).map(line => plainLine(line));

/** Every line of the run's detail, steps first. */
export function runDetailLines(run: RunSummary, steps: readonly Step[], width: number): DetailLine[] {
	const advice = run.outcome ? outcomeAdvice(run.outcome) : null;
	return [
		...steps.map(step => ({step})),
		...(run.error ? wrap(sanitize(run.error), width - 2).map(text => ({text, tone: 'red' as const})) : []),
		...(advice ? wrap(advice, width - 2).map(text => ({text, tone: 'yellow' as const})) : []),
		...(run.text ? [{text: 'Answer:', tone: 'bold' as const}, ...wrap(sanitize(run.text, {multiline: true}), width - 2).map(text => ({text, tone: '' as const}))] : []),
	];
}

/**
 * What `height` rows show of `total` lines from `top`: the first line shown, how many, and how
 * many are left above and below (each marker takes a row when there is something to mark).
 */
export function detailWindow(total: number, top: number, height: number): {first: number; count: number; above: number; below: number} {
	const room = Math.max(1, height - DETAIL_HEAD_ROWS);
	if (total <= room) return {first: 0, count: total, above: 0, below: 0};
	// Both markers keep their rows while the lines overflow, so a line never jumps when one appears.
	const shown = Math.max(1, room - 2);
	const first = Math.min(Math.max(0, top), total - shown);
	return {first, count: shown, above: first, below: total - first - shown};
}

/** The furthest a detail of `total` lines scrolls in `height` rows. */
export function maxDetailTop(total: number, height: number): number {
	const room = Math.max(1, height - DETAIL_HEAD_ROWS);
	return total <= room ? 0 : total - Math.max(1, room - 2);
}
