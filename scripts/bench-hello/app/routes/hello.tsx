export function loader() {
  return { greeting: "Hello" };
}

export default function Hello({ loaderData }: { loaderData: { greeting: string } }) {
  return <h1>{loaderData.greeting}, world</h1>;
}
