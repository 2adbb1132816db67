// A value class caught mid-edit: `scale`'s parameter list is not closed yet, and the one-line
// methods after it parse as part of an error with it.
export class Vector {
  constructor(readonly x: number, readonly y: number) {}

  get length(): number { return Math.hypot(this.x, this.y) }
  add(other: Vector): Vector { return new Vector(this.x + other.x, this.y + other.y) }
  scale( { return new Vector(this.x * 2, this.y * 2) }
  dot(other: Vector): number { return this.x * other.x + this.y * other.y }
  toString(): string { return `(${this.x}, ${this.y})` }
}

export const ZERO = new Vector(0, 0);
