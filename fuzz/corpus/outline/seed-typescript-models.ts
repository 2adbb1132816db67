import { Component, EventEmitter, Input, Output } from "@angular/core";

/** A user as the API returns it. */
export interface User {
  readonly id: string;
  name: string;
  email?: string;
  roles: ReadonlyArray<"admin" | "editor" | "viewer">;
  [extra: string]: unknown;
  displayName(): string;
}

export type Page<T> = { items: T[]; next?: string };

@Component({
  selector: "app-user-card",
  templateUrl: "./user-card.component.html",
  styleUrls: ["./user-card.component.css"],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class UserCardComponent implements OnChanges {
  @Input() user!: User;
  @Input({ required: true, transform: booleanAttribute }) compact = false;
  @Output() readonly selected = new EventEmitter<User>();
  static readonly DEFAULT_AVATAR = "/assets/avatar.svg";
  protected initials = "";
  private cache = new Map<string, string>();
  #renders = 0;

  constructor(private readonly avatars: AvatarService) {}

  @HostListener("window:resize", ["$event"])
  @debounce({ wait: 250, leading: false, trailing: true, maxWait: 1000, signal: abortController.signal })
  onResize(event: UIEvent): void {
    this.#renders++;
  }
}
