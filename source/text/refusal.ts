// The one wording of what to use instead of a refused value: options with labels, or the range.

import type {FieldProblem, StoreErrorBody} from '../../store/index.js';
import {sanitize, sanitizeValue} from './sanitize.js';

/**
 * What a person can use instead of a refused value: each option as value then label, or the range.
 * The one wording of the CLI, the TUI's edit and the follow-up queue; not escaped (callers do).
 */
export function allowedText(problem: Pick<FieldProblem, 'allowed' | 'min' | 'max'>): string | undefined {
	if (problem.allowed) {
		return problem.allowed.map(option => `${option.value} (${option.label})`).join(', ');
	}

	if (problem.min !== undefined || problem.max !== undefined) {
		return `${problem.min ?? '…'} to ${problem.max ?? '…'}`;
	}

	return undefined;
}

/** The allowed values as a hint line ("allowed: …"), or undefined when the refusal names none. */
export function hintFor(problem: Pick<FieldProblem, 'allowed' | 'min' | 'max'>): string | undefined {
	const allowed = allowedText(problem);
	return allowed === undefined ? undefined : `allowed: ${allowed}`;
}

/**
 * A store refusal for a person, values and field names escaped: as lines (`'lines'`, the TUI's
 * panes and the review text) or as one line (`'line'`, the CLI's messages). One wording for both.
 */
export function describeRefusal(body: StoreErrorBody, layout: 'line' | 'lines' = 'lines'): string {
	const oneLine = layout === 'line';
	if (body.error === 'validation_failed') {
		const problems = body.fields.map(problem => {
			const hint = hintFor(problem);
			return {message: sanitizeValue(problem.message), hint: hint === undefined ? undefined : sanitizeValue(hint)};
		});
		return oneLine
			? `refused: ${problems.map(({message, hint}) => `${message}${hint ? ` (${hint})` : ''}`).join('; ')}`
			: ['refused:', ...problems.map(({message, hint}) => `  ${message}${hint ? `\n    ${hint}` : ''}`)].join('\n');
	}

	if (body.error === 'version_conflict') {
		const changes = Object.entries(body.changed_since).map(([key, change]) => `${sanitize(key)}: ${sanitizeValue(change.from)} → ${sanitizeValue(change.to)}`);
		if (oneLine) return `${sanitizeValue(body.message)}${changes.length > 0 ? `; changed since: ${changes.join(', ')}` : ''}`;
		return [sanitizeValue(body.message), ...(changes.length > 0 ? ['changed since:', ...changes.map(change => `  ${change}`)] : [])].join('\n');
	}

	if (body.error === 'bad_query') {
		return `bad query term ${sanitizeValue(JSON.stringify(body.term))}: ${sanitizeValue(body.message)}`;
	}

	return sanitizeValue(body.message);
}
