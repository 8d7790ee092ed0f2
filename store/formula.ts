/**
 * The formula language: numbers, field keys, `created_at`, + - * /, parentheses,
 * today(), days_between(a, b), round(x), min(...), max(...). Parsed by hand into a tree and
 * walked; nothing is ever handed to eval or Function.
 */

export type FormulaNode =
	| {kind: 'number'; value: number}
	| {kind: 'name'; name: string}
	| {kind: 'unary'; operand: FormulaNode}
	| {kind: 'binary'; operator: '+' | '-' | '*' | '/'; left: FormulaNode; right: FormulaNode}
	| {kind: 'call'; name: FunctionName; args: FormulaNode[]};

type FunctionName = 'today' | 'days_between' | 'round' | 'min' | 'max';

const ARITY: Record<FunctionName, [number, number]> = {
	today: [0, 0],
	days_between: [2, 2],
	round: [1, 1],
	min: [1, 32],
	max: [1, 32],
};

const MAX_LENGTH = 1000;
const MAX_DEPTH = 32;

export class FormulaError extends Error {
	override name = 'FormulaError';
}

type Token = {type: 'number' | 'name' | 'op'; text: string; at: number};

function tokenize(source: string): Token[] {
	const tokens: Token[] = [];
	const pattern = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y;
	let at = 0;
	while (at < source.length) {
		if (/^\s*$/.test(source.slice(at))) {
			break;
		}

		pattern.lastIndex = at;
		const match = pattern.exec(source);
		if (!match) {
			throw new FormulaError(`unexpected character ${JSON.stringify(source.slice(at).trim()[0])} at position ${at + 1}`);
		}

		const [, number, name, op] = match;
		tokens.push(number === undefined ? (name === undefined ? {type: 'op', text: op!, at} : {type: 'name', text: name, at}) : {type: 'number', text: number, at});
		at = pattern.lastIndex;
	}

	return tokens;
}

/** Recursive descent over: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*. */
class Parser {
	private index = 0;

	constructor(private readonly tokens: Token[]) {}

	parse(): FormulaNode {
		const node = this.sum(0);
		const extra = this.tokens[this.index];
		if (extra) {
			throw new FormulaError(`unexpected ${JSON.stringify(extra.text)} at position ${extra.at + 1}`);
		}

		return node;
	}

	private sum(depth: number): FormulaNode {
		let node = this.product(depth);
		while (this.peek('+') || this.peek('-')) {
			const operator = this.next().text as '+' | '-';
			node = {kind: 'binary', operator, left: node, right: this.product(depth)};
		}

		return node;
	}

	private product(depth: number): FormulaNode {
		let node = this.unary(depth);
		while (this.peek('*') || this.peek('/')) {
			const operator = this.next().text as '*' | '/';
			node = {kind: 'binary', operator, left: node, right: this.unary(depth)};
		}

		return node;
	}

	private unary(depth: number): FormulaNode {
		if (depth > MAX_DEPTH) {
			throw new FormulaError(`nested deeper than ${MAX_DEPTH} levels`);
		}

		if (this.peek('-')) {
			this.next();
			return {kind: 'unary', operand: this.unary(depth + 1)};
		}

		if (this.peek('(')) {
			this.next();
			const inner = this.sum(depth + 1);
			this.expect(')');
			return inner;
		}

		const token = this.next();
		if (token.type === 'number') {
			return {kind: 'number', value: Number(token.text)};
		}

		if (token.type !== 'name') {
			throw new FormulaError(`unexpected ${JSON.stringify(token.text)} at position ${token.at + 1}`);
		}

		return this.peek('(') ? this.call(token, depth) : {kind: 'name', name: token.text};
	}

	private call(token: Token, depth: number): FormulaNode {
		if (!Object.hasOwn(ARITY, token.text)) {
			throw new FormulaError(`unknown function ${token.text}()`);
		}

		const name = token.text as FunctionName;
		this.expect('(');
		const args: FormulaNode[] = [];
		if (!this.peek(')')) {
			do {
				args.push(this.sum(depth + 1));
			} while (this.peek(',') && this.next());
		}

		this.expect(')');
		const [least, most] = ARITY[name];
		if (args.length < least || args.length > most) {
			throw new FormulaError(`${name}() takes ${least === most ? least : `${least} to ${most}`} argument(s), got ${args.length}`);
		}

		return {kind: 'call', name, args};
	}

	private peek(text: string): boolean {
		const token = this.tokens[this.index];
		return token?.type === 'op' && token.text === text;
	}

	private next(): Token {
		const token = this.tokens[this.index++];
		if (!token) {
			throw new FormulaError('the expression ends too early');
		}

		return token;
	}

	private expect(text: string): void {
		if (!this.peek(text)) {
			const token = this.tokens[this.index];
			throw new FormulaError(token ? `expected ${JSON.stringify(text)} at position ${token.at + 1}` : `expected ${JSON.stringify(text)} at the end`);
		}

		this.index++;
	}
}

export function parseFormula(source: string): FormulaNode {
	if (typeof source !== 'string' || source.trim() === '') {
		throw new FormulaError('the expression is empty');
	}

	if (source.length > MAX_LENGTH) {
		throw new FormulaError(`the expression is longer than ${MAX_LENGTH} characters`);
	}

	return new Parser(tokenize(source)).parse();
}

/** Every name the expression reads, so the importer can check them against the fields. */
export function namesIn(node: FormulaNode): string[] {
	switch (node.kind) {
		case 'name': {
			return [node.name];
		}

		case 'unary': {
			return namesIn(node.operand);
		}

		case 'binary': {
			return [...namesIn(node.left), ...namesIn(node.right)];
		}

		case 'call': {
			return node.args.flatMap(arg => namesIn(arg));
		}

		default: {
			return [];
		}
	}
}

/** A day is a number of whole days since 1970-01-01 (UTC); numbers are plain numbers. */
export type FormulaValue = {kind: 'number'; value: number} | {kind: 'day'; value: number} | null;

export type FormulaScope = {lookup(name: string): FormulaValue; today: number};

const DAY_MS = 86_400_000;

/** Whole UTC days since the epoch for an ISO date or timestamp, or null when it is not one. */
export function dayOf(text: unknown): number | null {
	if (typeof text !== 'string') {
		return null;
	}

	const ms = Date.parse(text);
	return Number.isNaN(ms) ? null : Math.floor(ms / DAY_MS);
}

export const todayDay = (now = Date.now()) => Math.floor(now / DAY_MS);

/**
 * A number result; one that overflows (or is NaN) is null, like any other undefined result, so
 * text and JSON show the same empty value rather than "Infinity" in one and null in the other
 * (docs/reference.md#formulas).
 */
const num = (value: number): FormulaValue => (Number.isFinite(value) ? {kind: 'number', value} : null);

function numbersOf(values: FormulaValue[]): number[] | null {
	return values.every(value => value?.kind === 'number') ? values.map(value => value!.value) : null;
}

function applyCall(name: FunctionName, args: FormulaValue[], scope: FormulaScope): FormulaValue {
	if (name === 'today') {
		return {kind: 'day', value: scope.today};
	}

	if (name === 'days_between') {
		const [from, to] = args;
		return from?.kind === 'day' && to?.kind === 'day' ? num(to.value - from.value) : null;
	}

	const numbers = numbersOf(args);
	if (!numbers) {
		return null;
	}

	if (name === 'round') {
		return num(Math.round(numbers[0]!));
	}

	return num(name === 'min' ? Math.min(...numbers) : Math.max(...numbers));
}

function applyBinary(operator: '+' | '-' | '*' | '/', left: FormulaValue, right: FormulaValue): FormulaValue {
	if (left?.kind !== 'number' || right?.kind !== 'number') {
		return null;
	}

	switch (operator) {
		case '+': {
			return num(left.value + right.value);
		}

		case '-': {
			return num(left.value - right.value);
		}

		case '*': {
			return num(left.value * right.value);
		}

		default: {
			return right.value === 0 ? null : num(left.value / right.value);
		}
	}
}

/** Evaluates a parsed formula; anything undefined (a missing value, division by zero) is null. */
export function evaluateFormula(node: FormulaNode, scope: FormulaScope): FormulaValue {
	switch (node.kind) {
		case 'number': {
			// A literal of 309 digits or more reads as Infinity.
			return num(node.value);
		}

		case 'name': {
			return scope.lookup(node.name);
		}

		case 'unary': {
			const operand = evaluateFormula(node.operand, scope);
			return operand?.kind === 'number' ? num(-operand.value) : null;
		}

		case 'binary': {
			return applyBinary(node.operator, evaluateFormula(node.left, scope), evaluateFormula(node.right, scope));
		}

		case 'call': {
			return applyCall(node.name, node.args.map(arg => evaluateFormula(arg, scope)), scope);
		}
	}
}

/** The stored shape of a formula result: a number, a YYYY-MM-DD day, or null. */
export function formulaOutput(value: FormulaValue): number | string | null {
	if (value === null || !Number.isFinite(value.value)) {
		return null;
	}

	return value.kind === 'number' ? value.value : new Date(value.value * DAY_MS).toISOString().slice(0, 10);
}
