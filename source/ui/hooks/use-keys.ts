import {useInput, type Key} from '#ink';
import {appendFileSync} from 'node:fs';
import {useEffect, useRef, useState} from 'react';

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

const toPending = ([input, key]: [string, Key]): Pending => ({input, key});

/**
 * Feeds keys to `route` one per render, so every key sees the state the previous one left.
 * Ink hands over several keys in one tick when they arrive together (a fast typist, a held key,
 * a test), and text typed in one chunk ("jj") as one input: handled with one render's closures,
 * all but the last would act on stale state. Printable chunks are split into single keys unless
 * `wantsText()` says the focused input takes text (then the chunk is typed at once, as a paste).
 */
export function useKeyQueue(route: (input: string, key: Key) => void, wantsText: () => boolean) {
	const queue = useRef<Pending[]>([]);
	const busy = useRef(false);
	const routeRef = useRef(route);
	routeRef.current = route;
	const wantsTextRef = useRef(wantsText);
	wantsTextRef.current = wantsText;
	const [, kick] = useState(0);
	// Keys handled so far, and how many of them this render's state already reflects: a key may
	// go only once a render that saw every earlier key has committed (an effect of an older
	// render, flushed late, must not let it through).
	const handled = useRef(0);
	const seenByThisRender = handled.current;

	const handleOne = () => {
		const next = queue.current.shift();
		if (!next) return false;
		handled.current++;
		const {input, key} = next.input.length === 1 && next.key === PLAIN ? toPending(single(next.input)) : next;
		debug(wantsTextRef.current() ? 'text' : 'key', input);
		const printable = input.length > 1 && !key.ctrl && !key.meta && !key.escape && !input.includes('\u001b');
		// eslint-disable-next-line no-control-regex
		const control = /[\u0000-\u001f\u007f]/;
		if (printable && wantsTextRef.current() && control.test(input)) {
			// Typed ahead: the text up to a control key (Enter, Ctrl+U, Backspace…) goes in as typed,
			// then that key acts, then the rest waits its turn.
			const at = input.search(control);
			if (at > 0) {
				queue.current.unshift({input: input.slice(at), key: PLAIN});
				routeRef.current(input.slice(0, at), PLAIN);
			} else {
				if (input.length > 1) queue.current.unshift({input: input.slice(1), key: PLAIN});
				routeRef.current(...single(input[0]!));
			}
		} else if (printable && !wantsTextRef.current()) {
			const [first, ...rest] = Array.from(input);
			if (rest.length > 0) queue.current.unshift({input: rest.join(''), key: PLAIN});
			routeRef.current(...single(first!));
		} else {
			routeRef.current(input, key);
		}

		return true;
	};

	// After every render: the previous key's state is in place, so the next one may go.
	useEffect(() => {
		if (seenByThisRender !== handled.current) return;
		busy.current = false;
		if (queue.current.length > 0) {
			busy.current = handleOne();
			kick(value => value + 1);
		}
	});

	useInput((input, key) => {
		debug('in', input);
		queue.current.push({input, key});
		if (!busy.current) {
			busy.current = handleOne();
		}

		kick(value => value + 1);
	});
}
