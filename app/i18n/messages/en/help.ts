// The borrower's Help (/User/Help, /User/Help/new, /User/Help/GRV-…): the questions, their tickets,
// the form that raises one and a ticket's page. Staff ticket pages keep app/domain/help.ts's English
// words. Hindi in ../hi/help.ts.
export default {
  meta: {
    title: "Help",
  },
  newMeta: {
    title: "Raise a ticket",
  },
  ticketMeta: {
    title: "Ticket {reference}",
  },
  heading: "Help",
  /** A loan by its number, or an application not yet paid out by its short reference. */
  loanName:
    "{number, select, none {{kind, select, emi {EMI loan} other {Salary advance}} application {reference}} other {{kind, select, emi {EMI loan} other {Salary advance}} {number}}}",
  raise: "Raise a ticket",
  back: "← Help",
  /** How each status reads to the borrower (app/domain/help.ts TICKET_STATUS_LABEL). */
  status: {
    open: "Open",
    in_progress: "In progress",
    waiting: "Waiting for you",
    resolved: "Resolved",
    closed: "Closed",
  },
  kinds: {
    complaint: "A complaint",
    request: "A question or request",
  },
  kindHints: {
    complaint:
      "Something went wrong and you want it put right. Complaints are answered within 30 days, or you may go to the RBI Ombudsman.",
    request: "A question, or something you need from us (a document, a change to your details).",
  },
  categories: {
    applying: "Applying for a loan",
    kyc: "KYC and documents",
    repayment: "Repayments and payments",
    charges: "Interest and charges",
    recovery: "Recovery calls or visits",
    data: "My account and data",
    credit_information: "My credit report (credit bureau information)",
    other: "Something else",
  },
  tickets: {
    heading: "Your tickets",
    none: "You have not raised a ticket. If the answers below do not help, raise one: you get a reference at once and an answer within {days} days, usually within two working days.",
    lastChange: "Last change {date}",
    mayEscalate: "You may escalate",
  },
  faq: {
    heading: "Frequently asked questions",
    search: "Search the questions",
    searchButton: "Search",
    noMatch: "No question matches “{q}”. <link>Ask us instead</link>.",
    matches: "{count, plural, one {# question matches} other {# questions match}} “{q}”.",
    showAll: "Show every question",
    sections: {
      applying: {
        title: "Applying",
        which: {
          q: "Which loans can I apply for?",
          a: "An EMI loan of {emiMin} to {emiMax} repaid in {minMonths} to {maxMonths} monthly instalments, or a salary advance of {saMin} to {saMax} (at most {cap}% of your net monthly salary) repaid in one payment on your next salary date.",
        },
        decision: {
          q: "How long does a decision take?",
          a: "A credit officer reviews a signed application within one working day. If they need something more, you get an SMS and a notice, and the question is on your dashboard.",
        },
        change: {
          q: "Can I change or cancel an application?",
          a: "Before you sign, you can change any step or cancel it from your dashboard. After the money reaches you: within {days, plural, one {# day} other {# days}} of disbursal you may cancel the loan with no penalty by repaying the net amount you received plus its cost at the APR for the days used (net amount × APR × days ÷ 365; nothing for the day of disbursal itself). This is never more than closing the loan the same day would cost: in effect the processing fee and its GST are returned, except their share for the days used.",
        },
        rejected: {
          q: "Why was my application not approved?",
          a: "The reason, in plain words, and the date from which you may apply again are on the application's status page.",
        },
      },
      kyc: {
        title: "KYC and documents",
        complete: {
          q: "What do I need to complete my profile?",
          a: "Seven sections: your profile (name, date of birth, PAN and Aadhaar), address, employment, bank account, two references, documents and a selfie. Your profile page shows what is still missing.",
        },
        files: {
          q: "Which files can I upload?",
          a: "Photos (JPG or PNG) or PDF files up to the size shown beside each document. A photo taken with your phone's camera is fine if every word is readable.",
        },
        bank: {
          q: "Why do you need my bank account?",
          a: "The loan is sent only to a bank account in your own name, and it is where we take repayments from if you set up automatic payment.",
        },
      },
      repayment: {
        title: "Repayment",
        pay: {
          q: "How do I pay an instalment?",
          a: "Open the loan under Loans and choose Pay now. You can pay the amount due, the overdue amount, the full payoff amount or any amount in between.",
        },
        early: {
          q: "Can I repay my loan early?",
          a: "Yes, at any time and with no charge. The loan page shows the payoff amount for the date you choose; for a salary advance you pay interest only for the days used.",
        },
        notShown: {
          q: "I paid but the app does not show it.",
          a: "Most payments show within minutes. If your bank took the money but the loan page does not show it after a working day, raise a ticket with the bank's reference; we will trace it.",
        },
      },
      charges: {
        title: "Charges",
        what: {
          q: "What are the charges?",
          a: "Interest, a processing fee ({emiFee}% of an EMI loan, at least {minFee}; {saFee}% of a salary advance) with {gst}% GST taken from the amount sent to you, and a flat penal charge if an instalment is missed. Every charge and the annual percentage rate (APR) is in your Key Fact Statement before you sign. There is no charge that is not in it.",
        },
        penal: {
          q: "What is a penal charge?",
          a: "A flat {penal} for each missed instalment (less if less was unpaid). It is shown as its own line, never earns interest and is never added to your principal.",
        },
        apr: {
          q: "Why is the APR higher than the interest rate?",
          a: "The APR counts the processing fee as well as the interest, over the time you have the money, so it shows the full yearly cost of the loan.",
        },
      },
      account: {
        title: "Account and data",
        signedOut: {
          q: "Why was I signed out with “Someone else logged in!”?",
          a: "Your account can be open on one device at a time. Signing in on another phone or browser ends the older session. If it was not you, sign in again and raise a ticket.",
        },
        protect: {
          q: "How do you protect my data?",
          a: "Your documents and identity numbers are encrypted where they are stored, only the staff who review your application can see them, every look is recorded, and we never share them except as the law requires or you agree.",
        },
        change: {
          q: "How do I change my mobile number or e-mail?",
          a: "Your e-mail is in the Profile section of your KYC profile. Your mobile number is how you sign in: raise a ticket and we will change it after checking it is you.",
        },
        otp: {
          q: "Will you ever ask for my OTP?",
          a: "Never. Our staff will not ask for a one-time code, PIN or password by phone, SMS or e-mail. Do not share them with anyone.",
        },
      },
    },
  },
  complaints: {
    heading: "Complaints",
    body: "Raise a complaint as a ticket here, or write to or call our grievance officer. We answer within {days} days. If we do not, or you do not accept our answer, you may complain to the RBI Integrated Ombudsman at <link>cms.rbi.org.in</link>; each ticket shows how.",
  },
  new: {
    intro:
      "Tell us what happened or what you need. You get a reference at once (also by SMS), and an answer within {days} days, usually within two working days. Never write your OTP, PIN or full card or account number here.",
    kind: "Is it a complaint or a question?",
    category: "What is it about?",
    creditInformation:
      "If what we reported about you to a credit bureau (such as CIBIL) is wrong, choose “My credit report (credit bureau information)”: we answer it within {days} days.",
    loan: "Which loan? (optional)",
    noLoan: "Not about one loan",
    title: "Title",
    titleHint: "A few words, for example “Payment not shown”.",
    send: "Raise the ticket",
    message: "Your message",
    sending: "Sending…",
    limitOpen:
      "You already have {limit} tickets open with us, which is as many as one account can have at once. We never turn a complaint away: add what you want to tell us to one of them below, and we will read it there just as we would a new ticket.",
    limitDay:
      "You have raised {limit} tickets in a day, which is as many as one account can raise; you can raise a new one after {when}. We never turn a complaint away: add what you want to tell us to one of your open tickets below, and we will read it there just as we would a new ticket.",
    addTo: "Add it to",
    addSend: "Add it to the ticket",
    added: "Added to ticket {reference}",
    addedDescription: "We read it there as we would a new ticket. Nothing else is sent to your mobile.",
    raised: "Ticket {reference} raised",
    raisedDescription: "We have sent the reference to your mobile by SMS.",
  },
  ticket: {
    label: "Ticket <ref>{reference}</ref>",
    raisedOn: "Raised on",
    answeredOn: "Answered on",
    answerDueBy: "Answer due by",
    about: "About",
    messages: "Messages",
    support: "Support team",
    you: "You",
    reply: "Reply",
    replyLabel: "Your reply",
    sendReply: "Send reply",
    solved: "Is it solved?",
    closed: "This ticket is closed",
    reopenLabel: "Not solved? Tell us why and the ticket opens again (until {date}).",
    reopen: "Reopen the ticket",
    furtherNew: "To take it further, <link>raise a new ticket</link> and quote {reference}.",
    notAcceptIntro: "If you do not accept our answer, tell us: we show you how to go to the RBI Ombudsman.",
    notAccept: "I do not accept this answer",
    /** The lines the ticket's thread shows for what happened to it (stored in English, said again here). */
    system: {
      notAccepted: "You said you do not accept this answer.",
      statusChanged:
        "Status changed from {from, select, open {Open} in_progress {In progress} waiting {Waiting for you} resolved {Resolved} other {Closed}} to {to, select, open {Open} in_progress {In progress} waiting {Waiting for you} resolved {Resolved} other {Closed}}.",
    },
    done: {
      reply: "Your reply is sent.",
      reopen: "Ticket {reference} is open again.",
      notAccepted: "Noted. Below is how to take it to the RBI Ombudsman.",
    },
    refused: {
      not_found: "This ticket is not yours or does not exist.",
      closed: "This ticket is closed. Raise a new ticket and quote its reference.",
      resolved: "This ticket is resolved. Reopen it if the problem is not solved.",
      not_resolved: "This ticket is still open: reply to it instead.",
      too_late: "A ticket can be reopened within {days} days of its answer. Raise a new ticket and quote this reference.",
    },
  },
  escalation: {
    heading: "Take it to the RBI Integrated Ombudsman",
    late: "We did not resolve this complaint within {days} days. You may file a complaint with the Reserve Bank of India's Integrated Ombudsman, free of charge, at <link>cms.rbi.org.in</link> (or call 14448). Quote our reference {reference} and these details:",
    notAccepted:
      "You told us you do not accept our answer. You may file a complaint with the Reserve Bank of India's Integrated Ombudsman, free of charge, at <link>cms.rbi.org.in</link> (or call 14448). Quote our reference {reference} and these details:",
    detailsLabel: "Details to copy into the complaint",
    copy: "Copy the details",
    copied: "Copied",
    copiedStatus: "The details are copied.",
    /** The lines the borrower copies into the RBI's complaint form. */
    lines: {
      entity: "Regulated entity: {lender}",
      reference: "Complaint reference: {reference}",
      subject: "Subject: {subject}",
      raisedOn: "Complaint raised on: {date}",
      answeredOn: "Answer given on: {date}",
      noAnswerBy: "No final answer by: {date}",
    },
  },
  errors: {
    reload: "Reload the page and send it again.",
    kind: "Choose a complaint or a question.",
    category: "Choose what it is about.",
    loan: "Choose a loan from the list.",
    loanNotYours: "Choose one of your loans from the list.",
    subjectMissing: "Give it a short title.",
    subjectShort: "Give it a short title (at least 5 characters).",
    subjectLong: "Keep the title under 120 characters.",
    writeWhat: "Write what happened or what you need.",
    writeReply: "Write your reply.",
    writeWhy: "Write why it is not solved.",
    messageShort: "Write at least {min} characters so we can help.",
    messageLong: "Keep it under 2,000 characters.",
    chooseTicket: "Choose the ticket to add it to.",
    notOpen: "That ticket is no longer open. Choose one of your open tickets.",
  },
} as const;
