/** A tool call the loop runs: as the model sent it, with an error when its arguments could not be read. */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: Record<string, unknown>;
  argsError?: string;
}
