import type {Key} from '#ink';

// A keypress's name, as every binding spells its keys (features/feature.ts); the bindings
// themselves are each feature's, gathered by the registry (registry.ts).

/** The canonical name of a keypress, as the bindings spell keys. */
export function keyName(input: string, key: Key): string {
	if (key.upArrow) return 'up';
	if (key.downArrow) return 'down';
	if (key.leftArrow) return 'left';
	if (key.rightArrow) return 'right';
	if (key.pageDown) return 'pagedown';
	if (key.pageUp) return 'pageup';
	if (key.home) return 'home';
	if (key.end) return 'end';
	if (key.return) return 'enter';
	if (key.escape) return 'escape';
	if (key.tab) return 'tab';
	if (key.backspace) return 'backspace';
	if (key.delete) return 'delete';
	if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
	if (input === ' ') return 'space';
	return input;
}
