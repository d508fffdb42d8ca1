import { listResource } from './lists';

export interface Volunteer {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  zipCode: string;
  interests: string | null;
  createdAt: string;
}

export const volunteers = listResource<Volunteer>('volunteers', 'Failed to fetch volunteers');
