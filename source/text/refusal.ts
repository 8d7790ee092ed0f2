import type {FieldProblem, StoreErrorBody} from '../../store/index.js';
import {sanitizeValue} from './sanitize.js';

/** What a person can use instead of a refused value: the options with labels, or the range. */
export function hintFor(problem: Pick<FieldProblem, 'allowed' | 'min' | 'max'>): string | undefined {
	if (problem.allowed) {
		return `allowed: ${problem.allowed.map(option => `${option.value} (${option.label})`).join(', ')}`;
	}

	if (problem.min !== undefined || problem.max !== undefined) {
		return `allowed: ${problem.min ?? '…'} to ${problem.max ?? '…'}`;
	}

	return undefined;
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
