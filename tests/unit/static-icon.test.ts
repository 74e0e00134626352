// StaticIcon (app/components/static-icon.tsx) writes on the server the <svg> lucide's own component
// writes for the same props, on a first render and on later ones (its element kept).
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Bell, CircleHelp, House, type LucideIcon, UserRound, Wallet } from "lucide-react";
import { describe, expect, it } from "vitest";
import { StaticIcon, type StaticIconProps } from "../../app/components/static-icon.tsx";

const ICONS: LucideIcon[] = [House, Wallet, UserRound, CircleHelp, Bell];
const PROPS: Omit<StaticIconProps, "icon">[] = [
  { "aria-hidden": "true", className: "size-5 md:size-4" },
  { "aria-hidden": "true", className: "h-5 w-5" },
  { className: "h-5 w-5 h-5" },
  {},
];

describe("StaticIcon on the server", () => {
  it("writes lucide's <svg> for the same props, again and again", () => {
    for (const icon of ICONS)
      for (const props of PROPS) {
        const theirs = renderToStaticMarkup(h(icon, props));
        expect(theirs).toMatch(/^<svg /);
        for (let i = 0; i < 3; i++) expect(renderToStaticMarkup(h(StaticIcon, { icon, ...props }))).toBe(theirs);
      }
  });

  it("writes it among other elements as lucide's does (one <svg>, its paths in order)", () => {
    const page = (own: boolean) =>
      renderToStaticMarkup(
        h(
          "nav",
          null,
          ICONS.map((icon, i) =>
            h(
              "a",
              { key: i, href: `/${i}` },
              own ? h(StaticIcon, { icon, "aria-hidden": "true" }) : h(icon, { "aria-hidden": "true" }),
              "label",
            ),
          ),
        ),
      );
    expect(page(true)).toBe(page(false));
  });
});
