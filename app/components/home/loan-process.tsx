import type { HomeData } from "../../domain/home.ts";

const STEPS = [
  {
    title: "Sign in with your mobile",
    text: "Enter your mobile number and the one-time code we send by SMS. That creates your account.",
  },
  {
    title: "Tell us about yourself",
    text: "Your name, date of birth, PAN, PIN code, work and income. It takes a few minutes.",
  },
  {
    title: "See your offer",
    text: "The amount you can borrow, the EMI or repayment, and the APR, worked out from clear rules.",
  },
  {
    title: "Complete your KYC",
    text: "Add your address, bank account, references, documents and a selfie taken in the browser.",
  },
  {
    title: "Read and sign",
    text: "Read the Key Fact Statement and loan agreement, then sign with a one-time code. You get a copy by SMS.",
  },
  {
    title: "Verification and disbursal",
    text: "Our team verifies your details and pays the loan into your own verified bank account.",
  },
];

export function LoanProcessSection(_props: HomeData) {
  return (
    <section id="loan-process" aria-labelledby="process-title" className="scroll-mt-4 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="process-title">How a loan works, from application to money in your account</h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="card flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
              >
                {i + 1}
              </span>
              <div>
                <h3>
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1 text-slate-700">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
