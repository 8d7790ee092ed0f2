// A yes/no question on the footer's prompt line.

import {Text} from '#ink';
import {useTheme} from '../../theme.js';
import type {FeatureView} from '../feature.js';

function Question({text}: {text: string}) {
	const theme = useTheme();
	return <Text bold color={theme.color('yellow')} wrap="truncate-end">{text}</Text>;
}

export const CONFIRM_VIEW = {
	place: 'prompt',
	render: overlay => <Question text={overlay.question}/>,
} satisfies FeatureView<'confirm'>;
