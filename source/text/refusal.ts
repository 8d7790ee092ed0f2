import type {FieldProblem, StoreErrorBody} from '../../store/index.js';
import {sanitizeValue} from './sanitize.js';

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

/** A store refusal as readable lines, values escaped. */
export function describeRefusal(body: StoreErrorBody): string {
	if (body.error === 'validation_failed') {
		return ['refused:', ...body.fields.map(problem => {
			const hint = hintFor(problem);
			return `  ${sanitizeValue(problem.message)}${hint ? `\n    ${sanitizeValue(hint)}` : ''}`;
		})].join('\n');
	}

	if (body.error === 'version_conflict') {
		const changes = Object.entries(body.changed_since).map(([key, change]) => `  ${key}: ${sanitizeValue(change.from)} → ${sanitizeValue(change.to)}`);
		return [sanitizeValue(body.message), ...(changes.length > 0 ? ['changed since:', ...changes] : [])].join('\n');
	}

	return sanitizeValue(body.message);
}
