import {useCallback, useEffect, useRef, useState} from 'react';
import {reduce} from '../reducer.js';
import type {Effect, ScreenState, Transition} from '../state.js';
import {performEffect, type Dispatch, type EffectHandlers} from './effects.js';

export type {Dispatch} from './effects.js';

/**
 * What the start asks for that the first frame does not show: the views' counts (one worker
 * thread each, seconds at 1M records) start once the first rows are on screen, so the threads
 * and the CPU they take do not hold up the first frame (docs/architecture.md#start-up).
 */
const afterFirstRows = (effect: Effect) => effect.kind === 'countViews';

/**
 * The screen's state machine wired to React: the state lives in a ref (so keys handled in one
 * tick each see the previous one's result) and is rendered from a copy; effects run as they come,
 * but for the start's own that wait for the first rows (`rowsShown` says when they are up).
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
		for (const effect of initial.effects.filter(effect => !afterFirstRows(effect))) performEffect(effect, initial.state, handlersRef.current, dispatch);
	}, [initial, dispatch]);

	// The first listing is in (or failed, and says so) once loading leaves 'list': its frame is drawn
	// when this effect runs, as React runs effects after the commit that Ink draws.
	const [rowsShown, setRowsShown] = useState(false);
	const listed = state.loading !== 'list';
	useEffect(() => {
		if (!listed || rowsShown) return;
		setRowsShown(true);
		for (const effect of initial.effects.filter(afterFirstRows)) performEffect(effect, ref.current, handlersRef.current, dispatch);
	}, [listed, rowsShown, initial, dispatch]);

	return {state, dispatch, current: () => ref.current, rowsShown};
}
