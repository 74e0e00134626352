// Messages of the rules many forms share (a mobile number, a one-time code…), in every page's
// messages (the root's loader sends them): schemas give them as keys (app/i18n/form-message.ts).
export default {
  mobile: {
    invalid: "Enter a valid 10-digit Indian mobile number, starting with 6, 7, 8 or 9.",
    yours: "Enter your mobile number.",
    any: "Enter a mobile number.",
    nominee: "Enter your nominee's mobile number.",
  },
} as const;
