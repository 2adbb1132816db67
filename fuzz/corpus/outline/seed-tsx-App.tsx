import React, { useState } from "react";
import type { FC } from "react";

type Props = { title: string; count?: number };

export const Counter: FC<Props> = ({ title, count = 0 }) => {
  const [n, setN] = useState(count);
  // increment on click
  return <button onClick={() => setN(n + 1)}>{title}: {n}</button>;
};

export default function App(): JSX.Element {
  return (
    <main>
      {/* the counter */}
      <Counter title="Clicks // not a comment" />
    </main>
  );
}

// The grammar reads no escaped backtick in a template literal type (see recover.rs).
type Usage<P extends string> = `Missing \`Self\` - use \`class Self extends Counter<Self>()(${P}{ ... })\``

class Legacy extends React.Component<Props> {
  render() {
    return <div>{this.props.title}</div>;
  }
}
