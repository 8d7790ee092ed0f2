// Performs the effects the screen machine asks for, each through its feature's handler (the
// registry's effect table, registry.ts: an effect kind without a handler does not compile).

import {EFFECTS} from '../registry.js';
import type {Dispatch, EffectContext, EffectHandlers} from '../features/feature.js';
import type {Effect, ScreenState} from '../state.js';

export type {Dispatch, EffectContext, EffectHandlers, EffectOf} from '../features/feature.js';
export {readListing} from '../features/list/effects.js';

/** Effects' work still under way (a store read, a run starting): none once the app has settled after a key. */
let underWay = 0;

/** How many effects' work is under way: the UI tests' condition that a key has been handled (test/ui/helpers.tsx). */
export const effectsUnderWay = (): number => underWay;

/** Performs one effect through its handler, with the state it came with. */
export function performEffect(effect: Effect, state: ScreenState, on: EffectHandlers, dispatch: Dispatch): void {
	const later: EffectContext['later'] = work => {
		underWay++;
		// Counted down after the answer is dispatched, so work that answer starts is counted before this ends.
		void work().then(event => {
			if (event) dispatch(event);
		}, (error: unknown) => {
			dispatch({type: 'effectFailed', message: (error as Error).message});
		}).finally(() => {
			underWay--;
		});
	};

	(EFFECTS[effect.kind] as (effect: Effect, context: EffectContext) => void)(effect, {state, on, dispatch, later});
}
