/** The lender's legal identity, from configuration: shown on the site, in the KFS and in letters. */
export interface LenderIdentity {
  name: string;
  rbiRegistration: string;
  cin: string;
  address: string;
  grievanceOfficer: { name: string; phone: string; email: string };
}
