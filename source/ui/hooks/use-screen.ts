import {useCallback, useEffect, useRef, useState} from 'react';
import {reduce} from '../reducer.js';
import type {ScreenState, Transition} from '../state.js';
import {performEffect, type Dispatch, type EffectHandlers} from './effects.js';

export type {Dispatch} from './effects.js';

/**
 * The screen's state machine wired to React: the state lives in a ref (so keys handled in one
 * tick each see the previous one's result) and is rendered from a copy; effects run as they come.
 */
export function useScreen(start: () => Transition, handlers: EffectHandlers) {
	const [initial] = useState(start);
	const ref = useRef<ScreenState>(initial.state);
	const [state, setState] = useState<ScreenState>(initial.state);
	const handlersRef = useRef(handlers);
	handlersRef.current = handlers;

	const dispatch: Dispatch = useCallback(event => {
		const {state: next, effects} = reduce(ref.current, event);
		if (next !== ref.current) {
			ref.current = next;
			setState(next);
		}

		for (const effect of effects) performEffect(effect, next, handlersRef.current, dispatch);
	}, []);

	useEffect(() => {
		for (const effect of initial.effects) performEffect(effect, initial.state, handlersRef.current, dispatch);
	}, [initial, dispatch]);

	return {state, dispatch, current: () => ref.current};
}
