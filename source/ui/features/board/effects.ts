// The runs board's effects: cancel one run or all of them, watch mode on or off (hooks/use-fanout.ts, hooks/use-watch.ts).

import type {EffectTable} from '../feature.js';

export const BOARD_EFFECTS = {
	cancelBatch: (effect, {on}) => on.board?.cancel(effect.position),
	cancelAllRuns: (_effect, {on}) => (on.board ? on.board.cancelAll() : on.cancelRun(null)),
	toggleWatch: (_effect, {on}) => on.board?.toggleWatch(),
} satisfies EffectTable<'cancelBatch' | 'cancelAllRuns' | 'toggleWatch'>;
