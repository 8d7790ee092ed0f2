// The shape of a field type's definition and the validation context.

import type {Field, FieldConfig, FieldProblem} from '../types.js';

/** What a validator may ask the database while checking a value. */
export type ValidationContext = {
	/** False for a channel the writer is not granted: its items are neither checked nor linked to. Absent: all are. */
	mayRelateTo?(channelId: string): boolean;
	relationExists(channelId: string, itemId: string): boolean;
};

/** A refusal before the field's key is attached; `message` is the text after `values.<key> `. */
export type Refusal = Omit<FieldProblem, 'key' | 'message'> & {message: string};

/** One field type: how to check its config at import, and a non-null value on write. */
export type FieldTypeSpec = {
	/** The config entries this type takes; any other is refused at import. */
	configKeys: ReadonlyArray<keyof FieldConfig>;
	/** Returns a problem with the config, or undefined when it is usable. */
	checkConfig(config: FieldConfig): string | undefined;
	/** Returns why a non-null value is refused, or undefined when it is accepted as is. */
	validate(value: unknown, field: Field, context: ValidationContext): Refusal | undefined;
};

export const isFiniteNumber = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value);

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks that optional numeric config entries are finite and ordered. */
export function checkBounds(config: FieldConfig): string | undefined {
	for (const name of ['min', 'max'] as const) {
		if (config[name] !== undefined && !isFiniteNumber(config[name])) {
			return `config.${name} must be a finite number`;
		}
	}

	if (config.min !== undefined && config.max !== undefined && config.min > config.max) {
		return `config.min (${config.min}) is greater than config.max (${config.max})`;
	}

	return undefined;
}

/** The range refusal shared by the numeric types: names both bounds when both exist. */
export function checkRange(value: number, min: number | undefined, max: number | undefined, got: string): Refusal | undefined {
	const low = min !== undefined && value < min;
	const high = max !== undefined && value > max;
	if (!low && !high) {
		return undefined;
	}

	if (min !== undefined && max !== undefined) {
		return {message: `must be between ${min} and ${max}, got ${got}`, min, max};
	}

	return low ? {message: `must be at least ${min}, got ${got}`, min} : {message: `must be at most ${max}, got ${got}`, max};
}
