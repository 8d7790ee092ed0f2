import type {Changes, Field, FieldProblem} from '../../store/index.js';
import {allowedText} from '../text/refusal.js';
import {formatValue, plainValue, shortFields, type Segment} from '../text/format.js';
import {sanitize} from '../text/sanitize.js';
import {resolveDateInput} from '../text/typed-value.js';
import type {FieldEditOverlay, QueueEntry} from './state.js';
import {fit} from './width.js';

/** One line of a picker (components/picker.tsx). */
export type Choice = {
	key: string;
	/** The choice as shown (already safe): a label, in its color. */
	segments: Segment[];
	/** Dim text after it, e.g. the option value or the current value. */
	hint?: string;
	/** multi_select: ticked. */
	checked?: boolean;
};

/** Fields a person can set (formulas are computed). */
export const editableFields = (fields: Field[]) => fields.filter(field => field.type !== 'formula');

/** The fields `e` chooses from: on marks the bulk fields, on one row every settable field. */
export const chooserFields = (fields: Field[], overlay: Pick<FieldEditOverlay, 'bulk'>) => (overlay.bulk ? bulkFields(fields) : editableFields(fields));

/** Fields a bulk edit can set: short (rows show them, so undo knows what to write back) and not unique. */
export const bulkFields = (fields: Field[]) => shortFields(editableFields(fields)).filter(field => !field.is_unique);

const FILTERABLE = new Set(['select', 'boolean']);

/** Fields the list can be filtered by. */
export const filterableFields = (fields: Field[]) => fields.filter(field => FILTERABLE.has(field.type));

/** Fields picked from a list of options rather than typed. */
export const isPicked = (field: Field) => field.type === 'select' || field.type === 'multi_select' || field.type === 'boolean';

/** The option picker's choices for a field: labels in their colors, the value beside; a clear choice unless required. */
export function optionChoices(field: Field, chosen: readonly string[] = []): Array<Choice & {value: unknown}> {
	const choices: Array<Choice & {value: unknown}> = [];
	if (field.type === 'boolean') {
		choices.push({key: 'true', value: true, segments: [{text: 'Yes'}], hint: 'true'}, {key: 'false', value: false, segments: [{text: 'No'}], hint: 'false'});
	} else {
		for (const option of field.config.options ?? []) {
			choices.push({key: `o:${option.value}`, value: option.value, segments: [{text: sanitize(option.label), color: option.color}], hint: sanitize(option.value), checked: chosen.includes(option.value)});
		}
	}

	if (!field.is_required && field.type !== 'multi_select') {
		choices.push({key: 'clear', value: null, segments: [{text: '(clear)'}], hint: 'null'});
	}

	return choices;
}

/** The field chooser: every settable field with its current value. */
export function fieldChoices(fields: Field[], values: Record<string, unknown>): Choice[] {
	const width = Math.min(16, Math.max(...fields.map(field => field.label.length)));
	return editableFields(fields).map(field => ({
		key: field.key,
		segments: [{text: fit(sanitize(field.label), width)}],
		hint: `${plainValue(field, values[field.key]) || '—'}${isPicked(field) ? '' : `  (${field.type})`}`,
	}));
}

/** What a field accepts, in a few words (for the typed input's title). */
export function fieldRules(field: Field): string {
	const {config} = field;
	const parts: string[] = [field.type];
	if (config.integer) parts.push('whole number');
	if (config.min !== undefined || config.max !== undefined) parts.push(`${config.min ?? '…'} to ${config.max ?? '…'}`);
	if (config.max_length !== undefined) parts.push(`at most ${config.max_length} chars`);
	if (field.type === 'date') parts.push('YYYY-MM-DD');
	if (field.is_required) parts.push('required');
	return parts.join(', ');
}

/** A refusal as inline lines: the store's message, then what is allowed (text/refusal.ts's wording). */
export function problemNotes(problem: FieldProblem): Array<{text: string; tone: 'error' | 'info'}> {
	const notes: Array<{text: string; tone: 'error' | 'info'}> = [{text: `Refused: ${sanitize(problem.message)}`, tone: 'error'}];
	const allowed = allowedText(problem);
	if (allowed !== undefined) notes.push({text: `Allowed: ${sanitize(allowed)}`, tone: 'error'});
	return notes;
}

/** What changed since the version we had, as one readable line per field. */
export function describeChanges(fields: Field[], changes: Changes): string[] {
	return Object.entries(changes).map(([key, change]) => {
		const field = fields.find(candidate => candidate.key === key);
		if (!field) return `${sanitize(key)} changed`;
		const show = (value: unknown) => plainValue(field, value) || '—';
		return `${sanitize(field.label)}: ${show(change.from)} → ${show(change.to)}`;
	});
}


/** A short safe rendering of a value for messages. */
export const shortValue = (field: Field, value: unknown) => {
	const text = formatValue(field, value).map(segment => segment.text).join('');
	return text === '' ? '—' : text;
};

/** The choices a follow-up offers: the allowed options with labels (from the refusal, else the schema). */
export function queueOptions(entry: QueueEntry, field: Field | null): Array<{value: string; label: string; color?: string}> {
	const allowed = entry.followUp.allowed ?? field?.config.options ?? [];
	return allowed.map(option => ({value: option.value, label: option.label, color: field?.config.options?.find(candidate => candidate.value === option.value)?.color}));
}

/**
 * What a typed value will write, shown under the input before Enter (the field edit and the
 * follow-up queue alike): a date's words as the ISO date they name from `now`'s day (the store
 * only ever gets ISO dates), or why they name none. Null for other fields and for empty input.
 */
export function typedPreview(field: Field | null, text: string, now: number): {text: string; tone?: 'warn'} | null {
	if (field?.type !== 'date' || text.trim() === '') return null;
	const date = resolveDateInput(text, new Date(now));
	return date.ok ? {text: `${sanitize(text.trim())} → ${date.date}`} : {text: sanitize(date.message), tone: 'warn'};
}
