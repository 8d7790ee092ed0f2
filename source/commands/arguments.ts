// Turns argv into an invocation (help, version, or a command with checked flags)

import {parseArgs} from 'node:util';
import {UsageError, type CliFlags} from './context.js';
import {defaultFlags, FLAGS, type FlagSpec} from './flags.js';
import {COMMAND_TABLE} from './help.js';

/** What the command line asks for. */
export type Invocation =
	| {kind: 'help'; command?: string}
	| {kind: 'version'}
	| {kind: 'command'; command: string; input: string[]; flags: CliFlags};

type Token = ReturnType<typeof parseArgs>['tokens'] extends Array<infer T> | undefined ? T : never;
type OptionToken = Extract<Token, {kind: 'option'}>;

/** Every flag name any command knows, typed so the tokenizer knows which ones take a value. */
const KNOWN_FLAGS: Map<string, FlagSpec> = new Map(Object.values(FLAGS).map(spec => [spec.name, spec]));

const TOKENIZER_OPTIONS = {
	...Object.fromEntries([...KNOWN_FLAGS.values()].map(spec => [spec.name, {type: spec.kind === 'boolean' ? 'boolean' : 'string'} as const])),
	help: {type: 'boolean', short: 'h'},
	version: {type: 'boolean'},
} as const;

/**
 * Splits argv into flags and positionals without judging them (so that `--help` wins over any
 * other mistake on the line); interpret() then checks them against the command's own table.
 */
export function tokenize(argv: string[]): Token[] {
	return parseArgs({args: argv, options: TOKENIZER_OPTIONS, strict: false, allowPositionals: true, tokens: true}).tokens;
}

/** The subcommand named on the line (`tui` when none). */
export function commandOf(tokens: Token[]): string {
	const first = tokens.find(token => token.kind === 'positional');
	return first?.kind === 'positional' ? first.value : 'tui';
}

const dashed = (token: OptionToken) => token.rawName;

export function interpret(tokens: Token[], command: string): Invocation {
	const options = tokens.filter((token): token is OptionToken => token.kind === 'option');
	const positionals = tokens.flatMap(token => (token.kind === 'positional' ? [token.value] : []));
	if (command === 'help') {
		const topic = positionals[1];
		if (topic !== undefined && !Object.hasOwn(COMMAND_TABLE, topic)) throw new UsageError(`unknown command ${JSON.stringify(topic)}`);
		return {kind: 'help', command: topic};
	}

	if (!Object.hasOwn(COMMAND_TABLE, command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
	if (options.some(token => token.name === 'help')) return {kind: 'help', command: command === 'tui' ? undefined : command};
	if (options.some(token => token.name === 'version')) {
		if (command !== 'tui' || tokens.length !== 1) throw new UsageError('--version takes nothing else: sift --version');
		return {kind: 'version'};
	}

	const allowed = new Map(COMMAND_TABLE[command]!.flags.map(spec => [spec.name, spec]));
	const flags = defaultFlags();
	const seen = new Set<string>();
	for (const token of options) {
		const spec = allowed.get(token.name);
		if (!spec) {
			throw new UsageError(KNOWN_FLAGS.has(token.name)
				? `${dashed(token)} does not apply to ${commandName(command)}`
				: `unknown flag ${JSON.stringify(dashed(token)).slice(1, -1)}`);
		}

		if (seen.has(spec.name) && !spec.multiple) throw new UsageError(`${dashed(token)} is given more than once; give it once`);
		seen.add(spec.name);
		assign(flags, spec, valueOf(token, spec));
	}

	return {kind: 'command', command, input: command === 'tui' ? positionals : positionals.slice(1), flags};
}

export const commandName = (command: string) => (command === 'tui' ? 'sift' : `sift ${command}`);

function valueOf(token: OptionToken, spec: FlagSpec): string | undefined {
	if (spec.kind === 'boolean') {
		if (token.inlineValue) throw new UsageError(`--${spec.name} takes no value`);
		return undefined;
	}

	const {value} = token;
	// `--db --json`: the tokenizer took the next flag as the value.
	if (value === undefined || (!token.inlineValue && (spec.dashValue ? /^--/ : /^-(-|[a-z])/i).test(value))) {
		throw new UsageError(`--${spec.name} needs a value (${spec.value ?? 'VALUE'})`);
	}

	return value;
}

function assign(flags: CliFlags, spec: FlagSpec, raw: string | undefined): void {
	const target = flags as Record<string, unknown>;
	switch (spec.kind) {
		case 'boolean':
			target[spec.key] = spec.sets ?? true;
			break;
		case 'integer':
			target[spec.key] = integer(spec, raw!);
			break;
		case 'list': {
			const ids = raw!.split(',').map(part => part.trim()).filter(Boolean);
			if (ids.length === 0) throw new UsageError(`--${spec.name} needs at least one value (${spec.value})`);
			target[spec.key] = ids;
			break;
		}

		default:
			if (spec.multiple) {
				(target[spec.key] as string[]).push(raw!);
			} else {
				target[spec.key] = raw;
			}
	}
}

function integer(spec: FlagSpec, raw: string): number {
	const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
	const value = /^-?\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
	if (!Number.isSafeInteger(value)) throw new UsageError(`--${spec.name} must be a whole number, got ${shown}`);
	if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
		const range = spec.max === undefined || spec.max > 2 ** 31 ? `${spec.min} or greater` : `from ${spec.min} to ${spec.max}`;
		throw new UsageError(`--${spec.name} must be ${range}, got ${value}`);
	}

	return value;
}
