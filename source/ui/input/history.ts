import type {Action} from '../keys.js';
import {NONE} from '../state.js';
import type {KeyContext} from './context.js';

/** Keys in the run history: move through the runs, open one, close. */
export function onHistoryKey({overlay, setOverlay, history}: KeyContext, action: Action | undefined): void {
	if (overlay.kind !== 'history') return;
	if (action === 'cancel') setOverlay(overlay.open ? {...overlay, open: false} : NONE);
	else if (action === 'down' && !overlay.open) setOverlay({...overlay, cursor: Math.min(history.length - 1, overlay.cursor + 1)});
	else if (action === 'up' && !overlay.open) setOverlay({...overlay, cursor: Math.max(0, overlay.cursor - 1)});
	else if (action === 'open' && history[overlay.cursor]) setOverlay({...overlay, open: true});
}
