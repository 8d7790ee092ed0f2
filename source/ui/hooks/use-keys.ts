import {useInput, type Key} from '#ink';
import {appendFileSync} from 'node:fs';
import {useRef} from 'react';

/** SIFT_DEBUG_KEYS=FILE logs every key as routed (for chasing input bugs in a real terminal). */
const debugFile = process.env.SIFT_DEBUG_KEYS;
const debug = (what: string, input: string) => {
	if (debugFile) appendFileSync(debugFile, `${performance.now().toFixed(1)} ${what} ${JSON.stringify(input)}\n`);
};

type Pending = {input: string; key: Key};

const PLAIN: Key = {upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false} as Key;

/** One character of a chunk as Ink would have reported it alone. */
function single(character: string): [string, Key] {
	switch (character) {
		case '\r':
		case '\n': {
			return ['\r', {...PLAIN, return: true}];
		}

		case '\t': {
			return ['\t', {...PLAIN, tab: true}];
		}

		case '\u007f':
		case '\b': {
			return ['', {...PLAIN, backspace: true}];
		}

		default: {
			const code = character.codePointAt(0)!;
			if (code < 0x20) return [String.fromCharCode(code + 0x60), {...PLAIN, ctrl: true}];
			return [character, {...PLAIN, shift: character !== character.toLowerCase()}];
		}
	}
}

/**
 * Hands keys to `onKey` one at a time, in order. Ink passes text that arrives in one chunk ("jj",
 * a fast typist, a test) as one input: a printable chunk is split into single keys unless
 * `wantsText()` says the focused input takes text (then it is typed at once, as a paste, up to the
 * first control key, which then acts). `onKey` updates the screen's state at once (the reducer's
 * state lives in a ref), so each key sees what the one before it left, without waiting for a render.
 */
export function useKeys(onKey: (input: string, key: Key) => void, wantsText: () => boolean) {
	const onKeyRef = useRef(onKey);
	onKeyRef.current = onKey;
	const wantsTextRef = useRef(wantsText);
	wantsTextRef.current = wantsText;

	useInput((chunk, chunkKey) => {
		debug('in', chunk);
		const pending: Pending[] = [{input: chunk, key: chunkKey}];
		while (pending.length > 0) {
			const next = pending.shift()!;
			const [input, key] = next.input.length === 1 && next.key === PLAIN ? single(next.input) : [next.input, next.key] as const;
			const text = wantsTextRef.current();
			debug(text ? 'text' : 'key', input);
			const printable = input.length > 1 && !key.ctrl && !key.meta && !key.escape && !input.includes('\u001b');
			const control = /[\u0000-\u001f\u007f]/;
			if (printable && text && control.test(input)) {
				const at = input.search(control);
				if (at > 0) {
					pending.unshift({input: input.slice(at), key: PLAIN});
					onKeyRef.current(input.slice(0, at), PLAIN);
				} else {
					if (input.length > 1) pending.unshift({input: input.slice(1), key: PLAIN});
					onKeyRef.current(...single(input[0]!));
				}
			} else if (printable && !text) {
				const [first, ...rest] = Array.from(input);
				if (rest.length > 0) pending.unshift({input: rest.join(''), key: PLAIN});
				onKeyRef.current(...single(first!));
			} else {
				onKeyRef.current(input, key);
			}
		}
	});
}
