import type { ComponentType } from "react";
import { ApkSection } from "./apk.tsx";
import { CalculatorSection } from "./calculator.tsx";
import { ChooseSection } from "./choose.tsx";
import type { HomeData } from "../../domain/home.ts";
import { FeedbackSection } from "./feedback.tsx";
import { LoanProcessSection } from "./loan-process.tsx";
import { TopSection } from "./top.tsx";

/** A home section's /homeComponents/{name} route name; its title is the message `home.sections.{name}`. */
export type HomeSectionName = "top" | "calculator" | "choose" | "loanProcess" | "feedback" | "apk";

/** The home page's sections in page order, by their /homeComponents/{name} route name. */
export const HOME_SECTIONS: ReadonlyArray<{ name: HomeSectionName; Component: ComponentType<HomeData> }> = [
  { name: "top", Component: TopSection },
  { name: "calculator", Component: CalculatorSection },
  { name: "choose", Component: ChooseSection },
  { name: "loanProcess", Component: LoanProcessSection },
  { name: "feedback", Component: FeedbackSection },
  { name: "apk", Component: ApkSection },
];

export function HomeSections(props: HomeData & { only?: string }) {
  return (
    <>
      {HOME_SECTIONS.filter((s) => !props.only || s.name.toLowerCase() === props.only.toLowerCase()).map(({ name, Component }) => (
        <Component key={name} {...props} />
      ))}
    </>
  );
}
