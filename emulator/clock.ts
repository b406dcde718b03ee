/** The emulator's clock: real time plus an offset tests can move forward. */
export class Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offset += ms;
  }

  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }
}
