// The borrower's notices page (/User/Notifications) and the push opt-in on it. The notices' own
// titles and bodies are written when they are sent, in the borrower's language. Hindi in ../hi/notifications.ts.
export default {
  meta: {
    title: "Notices",
  },
  heading: "Notices",
  markAllRead: "Mark all as read",
  none: "No notices yet. Decisions on your applications, payments, reminders before a due date and messages from our team will appear here.",
  listLabel: "Your notices",
  unread: "Unread: ",
  open: "Open",
  markRead: "Mark as read",
  pages: "Older and newer notices",
  newer: "Newer notices",
  older: "Older notices",
  push: {
    heading: "Notices on this device",
    on: "Notices are on for this device.",
    turnOff: "Turn off on this device",
    intro: "If you turn them on, this device shows a notice when:",
    due: "a payment is due in 3 days, and on the day it is due",
    received: "we receive a payment from you",
    decided: "an application is approved or rejected, or we need something from you",
    overdue: "a payment is overdue and a penal charge is added",
    support: "our support team writes to you",
    quietHours:
      "Reminders and overdue notices are never sent between 19:00 and 08:00. Your browser will ask you to allow notices after you press the button. You can turn them off here at any time.",
    turningOn: "Turning on…",
    turnOn: "Turn on notices on this device",
    errors: {
      "unsupported-browser": "This browser cannot show notices from websites. You will still get them by SMS and here in the app.",
      "indexed-db-unsupported":
        "This browser keeps no site storage (a private window, or storage turned off), which notices need. You will still get them by SMS and here.",
      "failed-service-worker-registration":
        "The part of the site that shows notices could not be installed. Reload the page and try again.",
      "permission-blocked":
        "Notices are blocked for this site. To allow them, open the site settings (the icon left of the address) and set Notifications to Allow, then try again.",
      "subscription-failed": "The browser's notice service did not answer. Check your connection and try again.",
    },
  },
} as const;
