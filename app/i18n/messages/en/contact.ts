// The contact form (/Contact-us): the message becomes a ticket, and the page shows its reference.
// ICU messages; Hindi in ../hi/contact.ts.
export default {
  meta: {
    title: "Contact us",
    description: "Write to us about a loan, an application or this website.",
  },
  heading: "Contact us",
  intro:
    "Questions about a loan, your application or this website? Write to us and we reply within two working days. Never share a one-time code with anyone, including us.",
  sent: {
    heading: "Thank you. We have your message.",
    reference: "Its reference is <ref>{reference}</ref>. Quote it if you write or call us.",
    emailed: "We have e-mailed it to {email}.",
    notEmailed: "We have already e-mailed {email} as often as we do in a day, so this reference is not e-mailed: please note it down.",
    replyWithin: "We reply within two working days, and in any case within 30 days.",
    another: "Send another message",
  },
  form: {
    name: "Your name",
    mobile: "Mobile number",
    mobileHint: "10 digits, for example 98765 43210.",
    email: "E-mail",
    message: "Message",
    leaveEmpty: "Leave this field empty",
    sending: "Sending…",
    send: "Send message",
  },
  other: {
    heading: "Other ways to reach us",
    complaints: "Complaints: grievance officer",
    phone: "Phone: <tel>{phone}</tel>",
    email: "E-mail: <mail>{email}</mail>",
    policy: "Read how we handle complaints in our <link>grievance redressal policy</link>.",
  },
  errors: {
    reload: "Reload the page and send it again.",
    nameMissing: "Enter your name.",
    nameShort: "Enter your name (at least 2 letters).",
    nameLong: "Keep your name under 100 characters.",
    nameLetters: "Use letters and spaces only in your name.",
    emailInvalid: "Enter a valid e-mail address, like name@example.com.",
    emailMissing: "Enter your e-mail address.",
    messageMissing: "Write your message.",
    messageShort: "Write at least 10 characters so we can help.",
    messageLong: "Keep your message under 2,000 characters.",
    tooMany: "You have sent several messages in the last hour. Please try again after {time}, or call us.",
  },
} as const;
