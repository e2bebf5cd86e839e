/** A saved contact of the console (decision 40): unique per application and email, the email compared case-insensitively. */
export interface Contact {
  id: string;
  appId: string;
  name: string;
  email: string;
  phone: string | null;
  createdAt: string;
}

/** The identity of a contact within its application. */
export const contactEmailKey = (email: string) => email.trim().toLowerCase();

/** What a search matches against: name and email, case-folded; the search term is folded the same way. */
export const contactSearchText = (contact: Pick<Contact, 'name' | 'email'>) => `${contact.name}\n${contact.email}`.toLowerCase();
