// The `:` line on the footer's prompt line.

import {TextField} from '../../components/text-field.js';
import type {FeatureView} from '../feature.js';

export const COMMAND_VIEW = {
	place: 'prompt',
	render: overlay => <TextField label=": " state={overlay.text} placeholder="BUG-0042 · sort -due · view NAME · view save NAME · set FIELD VALUE · q"/>,
} satisfies FeatureView<'command'>;
