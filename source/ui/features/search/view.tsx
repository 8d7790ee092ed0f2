// `/`'s line on the footer's prompt line, with its problem or its match count after it.

import {TextField} from '../../components/text-field.js';
import type {FeatureView} from '../feature.js';
import {searchNote} from './slice.js';

export const SEARCH_VIEW = {
	place: 'prompt',
	render: overlay => <TextField label="/ " state={overlay.text} placeholder="words or terms: status:new owner:none sort:-due · Enter · Esc"/>,
	note: searchNote,
} satisfies FeatureView<'search'>;
