/** What the screen driver needs of a pane or a pty: read the screen, paste, press Enter, know the client ended. */
export interface ScreenPort {
  /** The visible screen now as plain text, one string per line, secrets already replaced (screen-lines.ts). */
  capture(): Promise<readonly string[]>;
  /** Pastes text (bracketed when the client asked for bracketed paste), without Enter. */
  paste(text: string): Promise<void>;
  /** Presses Enter once. */
  pressEnter(): Promise<void>;
  /** True once the client's process ended. */
  exited(): boolean;
}
