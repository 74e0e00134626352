import type { ComponentType } from "react";
import { ApkSection } from "./apk.tsx";
import { CalculatorSection } from "./calculator.tsx";
import { ChooseSection } from "./choose.tsx";
import type { HomeData } from "../../domain/home.ts";
import { FeedbackSection } from "./feedback.tsx";
import { LoanProcessSection } from "./loan-process.tsx";
import { TopSection } from "./top.tsx";

/** The home page's sections in page order, by their /homeComponents/{name} route name. */
export const HOME_SECTIONS: ReadonlyArray<{ name: string; title: string; Component: ComponentType<HomeData> }> = [
  { name: "top", title: "Personal loans and salary advances", Component: TopSection },
  { name: "calculator", title: "EMI calculator", Component: CalculatorSection },
  { name: "choose", title: "Why choose us", Component: ChooseSection },
  { name: "loanProcess", title: "How a loan works", Component: LoanProcessSection },
  { name: "feedback", title: "What borrowers say", Component: FeedbackSection },
  { name: "apk", title: "Install the app", Component: ApkSection },
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
