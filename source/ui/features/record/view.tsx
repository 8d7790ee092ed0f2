// `Z`: the record full screen is the list's pane (the record, or the run) laid out at the body's size (layout.ts).

import type {FeatureView} from '../feature.js';

export const RECORD_VIEW = {
	place: 'body',
	render: (_overlay, {pane}) => pane,
} satisfies FeatureView<'record'>;
