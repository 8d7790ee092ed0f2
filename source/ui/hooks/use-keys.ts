import {useInput, type Key} from 'ink';
import {useEffect, useRef, useState} from 'react';

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

	const handleOne = () => {
		const next = queue.current.shift();
		if (!next) return false;
		const {input, key} = next;
		const printable = input.length > 1 && !key.ctrl && !key.meta && !key.escape && !input.includes('\u001b');
		if (printable && wantsTextRef.current() && /[\r\n]/.test(input)) {
			// Typed ahead: the text up to Enter goes in, Enter submits, the rest waits its turn.
			const at = input.search(/[\r\n]/);
			if (at > 0) {
				queue.current.unshift({input: input.slice(at), key: PLAIN});
				routeRef.current(input.slice(0, at), PLAIN);
			} else {
				if (input.length > 1) queue.current.unshift({input: input.slice(1), key: PLAIN});
				routeRef.current(...single('\r'));
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
		busy.current = false;
		if (queue.current.length > 0) {
			busy.current = handleOne();
			kick(value => value + 1);
		}
	});

	useInput((input, key) => {
		queue.current.push({input, key});
		if (!busy.current) {
			busy.current = handleOne();
		}

		kick(value => value + 1);
	});
}
