import {Text} from '#ink';
import {caretParts, type TextState} from '../text-input.js';

/** A one-line input with a visible caret (inverse), text escaped. */
export function TextField({label, state, placeholder}: {label: string; state: TextState; placeholder?: string}) {
	const {before, at, after} = caretParts(state);
	return (
		<Text wrap="truncate-start">
			<Text bold>{label}</Text>
			{state.value === '' && placeholder ? (
				<>
					<Text inverse> </Text>
					<Text dimColor>{placeholder}</Text>
				</>
			) : (
				<>
					{before}
					<Text inverse>{at}</Text>
					{after}
				</>
			)}
		</Text>
	);
}
