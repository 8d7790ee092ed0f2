// The questions' effects: quitting, and cancelling the run (the one run, or the board's run).

import type {EffectTable} from '../feature.js';

export const CONFIRM_EFFECTS = {
	quit: (_effect, {on}) => on.quit(),
	cancelRun: (effect, {on}) => on.cancelRun(effect.position),
} satisfies EffectTable<'quit' | 'cancelRun'>;
