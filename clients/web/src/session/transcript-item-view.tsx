import { Component } from 'preact';
import { MessageBlock } from './message-block.js';
import { ThoughtBlock } from './thought-block.js';
import { ToolCallCard } from './tool-call-card.js';
import type { TranscriptItem } from './transcript-state.js';

/**
 * One transcript item. The reducer replaces only the items an update changes, so an item whose
 * object is the same as before skips rendering: a streamed chunk re-renders its message alone.
 */
export class TranscriptItemView extends Component<{ item: TranscriptItem }> {
  override shouldComponentUpdate(next: { item: TranscriptItem }): boolean {
    return next.item !== this.props.item;
  }

  override render() {
    const { item } = this.props;
    switch (item.kind) {
      case 'user':
      case 'agent':
        return <MessageBlock role={item.kind} text={item.text} />;
      case 'thought':
        return <ThoughtBlock text={item.text} />;
      case 'tool':
        return <ToolCallCard call={item.call} />;
      case 'notice':
        return (
          <p class={`notice notice-${item.severity}`}>
            <strong>{item.title}</strong>
            {item.description ? ` ${item.description}` : ''}
          </p>
        );
    }
  }
}
