// `Z`: the record full screen, and the record pane's scroll wherever it is shown (J/K in the list;
// PgDn, Space and the rest full screen). The line counting and clamping is record-view.ts.

import {recordStep} from '../../record-view.js';
import {none, type OverlaySlice} from '../feature.js';

export const RECORD = {
	scope: () => 'record',
	keys: {},
	events: {
		scrollPane: (state, event) => none(recordStep(state, event)),
		fullRecord: (state, event) => none(recordStep(state, event)),
	},
} satisfies OverlaySlice<'record', 'scrollPane' | 'fullRecord'>;
