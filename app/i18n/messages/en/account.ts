// The signed-in borrower's frame (app/routes/user/layout.tsx): the header with its sections, the bell
// and Sign out, the footer, and what the page says when another device signs in. Hindi in ../hi/account.ts.
export default {
  nav: {
    label: "Account",
    dashboard: "Dashboard",
    loans: "Loans",
    profile: "Profile",
    help: "Help",
  },
  signOut: "Sign out",
  bell: {
    label: "{unread, plural, =0 {Notices} one {Notices, # unread} other {Notices, # unread}}",
  },
  footer: {
    about:
      "{brand} is a digital lending platform of {lender}, a non-banking financial company registered with the Reserve Bank of India ({registration}).",
    complaint: "A complaint? <link>Raise a ticket</link> or contact the grievance officer. We answer within 30 days.",
  },
  displaced: {
    why: "Your account was signed in on another device, so this one has been signed out.",
    ifNotYou: "If it was not you, sign in again here and raise a ticket from Help.",
    ok: "OK",
  },
} as const;
